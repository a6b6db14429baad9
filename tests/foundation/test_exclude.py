"""Gradual adoption (issue #25): `exclude`, `extend-exclude`, `force-exclude` and
`per-file-ignores`, through the real `toolwire` command, real flake8 and real mypy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from frontend_helpers import (
    assert_no_traceback,
    run_flake8,
    run_toolwire,
    text_findings,
    write,
)

PY2 = 'print "x"\n'  # a committed Python 2 fixture: TW000 wherever it is read
LEAK = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return repr(result)
"""
TABLE = """\
[tool.toolwire]
exclude = ["legacy/", "old_*.py"]
extend-exclude = ["vendor/gen.py"]

[tool.toolwire.per-file-ignores]
"tests/**" = ["TW201"]
"""
MYPY = '\n[tool.mypy]\nplugins = ["toolwire.mypy"]\n'


def tree(root: Path, table: str = TABLE) -> Path:
    return write(
        root,
        {
            "pyproject.toml": table,
            "legacy/py2.py": PY2,
            "legacy/deeper/also.py": PY2,
            "old_script.py": PY2,
            "vendor/gen.py": PY2,
            "app/leak.py": LEAK,
            "tests/test_leak.py": LEAK,
        },
    )


def codes(result: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
    return sorted(
        (path.removeprefix("./"), code) for path, _, _, code in text_findings(result.stdout)
    )


def test_excluded_files_and_directories_are_never_read(tmp_path: Path) -> None:
    root = tree(tmp_path)
    done = run_toolwire(["check", "--exit-zero", "."], root)
    assert_no_traceback(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert codes(done) == [("app/leak.py", "TW201")]  # no TW000, tests/ silenced
    assert "in 1 of 2 files" in done.stderr  # the excluded files are not counted


def test_exclude_adds_to_the_built_in_skips(tmp_path: Path) -> None:
    root = tree(tmp_path)
    write(root, {".venv/pyvenv.cfg": "", ".venv/lib/bad.py": PY2, "build/bad.py": PY2})
    done = run_toolwire(["check", "--exit-zero", "."], root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert codes(done) == [("app/leak.py", "TW201")]


def test_a_file_named_on_the_command_line_is_checked_unless_force_exclude(
    tmp_path: Path,
) -> None:
    root = tree(tmp_path)
    done = run_toolwire(["check", "old_script.py", "legacy/py2.py", "app/leak.py"], root)
    assert done.returncode == 2, done.stdout + done.stderr
    assert codes(done) == [
        ("app/leak.py", "TW201"),
        ("legacy/py2.py", "TW000"),
        ("old_script.py", "TW000"),
    ]
    (root / "pyproject.toml").write_text(TABLE.replace("]\n", "]\nforce-exclude = true\n", 1))
    done = run_toolwire(["check", "old_script.py", "legacy/py2.py", "app/leak.py"], root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert codes(done) == [("app/leak.py", "TW201")]
    # A directory named with force-exclude is not walked either.
    done = run_toolwire(["check", "legacy"], root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no Python files found" in done.stderr


def test_per_file_ignores_in_check_in_every_format(tmp_path: Path) -> None:
    root = tree(tmp_path)
    for output_format in ("json", "sarif", "github"):
        done = run_toolwire(["check", "--format", output_format, "."], root)
        assert done.returncode == 1, done.stderr
        assert "app/leak.py" in done.stdout
        assert "tests/test_leak.py" not in done.stdout, output_format


def test_per_file_ignores_and_force_exclude_in_flake8(tmp_path: Path) -> None:
    root = tree(tmp_path)
    done = run_flake8(["--select", "TW", "app", "tests"], root)
    assert_no_traceback(done)
    assert codes(done) == [("app/leak.py", "TW201")]
    # flake8 names the files itself: only force-exclude keeps TW findings off them.
    table = TABLE.replace('"old_*.py"]', '"old_*.py", "app/"]')
    (root / "pyproject.toml").write_text(table)
    assert codes(run_flake8(["--select", "TW", "app"], root)) == [("app/leak.py", "TW201")]
    (root / "pyproject.toml").write_text(table.replace("]\n", "]\nforce-exclude = true\n", 1))
    done = run_flake8(["--select", "TW", "app", "tests"], root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert codes(done) == []


def run_mypy(root: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", *targets],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def mypy_codes(output: str) -> list[tuple[str, str]]:
    return sorted(
        (line.split(":")[0], line.split("error: ")[1][:5])
        for line in output.splitlines()
        if "error: TW" in line
    )


def test_per_file_ignores_and_force_exclude_in_mypy(tmp_path: Path) -> None:
    root = tree(tmp_path, TABLE + MYPY)
    done = run_mypy(root, "app", "tests")
    assert mypy_codes(done.stdout) == [("app/leak.py", "TW201")], done.stdout + done.stderr
    table = TABLE.replace('"old_*.py"]', '"old_*.py", "app/"]\nforce-exclude = true')
    (root / "pyproject.toml").write_text(table + MYPY)
    done = run_mypy(root, "app", "tests")
    assert done.returncode == 0, done.stdout + done.stderr
    assert mypy_codes(done.stdout) == []


@pytest.mark.parametrize(
    ("table", "key", "problem"),
    [
        (
            '[tool.toolwire.per-file-ignores]\n"tests/**" = ["TW999"]\n',
            'per-file-ignores."tests/**"',
            "'TW999' names no toolwire rule",
        ),
        (
            '[tool.toolwire.per-file-ignores]\n"tests/**" = ["E501"]\n',
            'per-file-ignores."tests/**"',
            "'E501' is not a TW code or prefix",
        ),
        (
            '[tool.toolwire]\nper-file-ignores = ["tests/**"]\n',
            "per-file-ignores",
            "expected a table",
        ),
        ('[tool.toolwire]\nforce-exclude = "yes"\n', "force-exclude", "expected true or false"),
        ("[tool.toolwire]\nextend-exclude = [1]\n", "extend-exclude", "expected a list of strings"),
        ('[tool.toolwire]\nexclude = [""]\n', "exclude", "not a glob"),
    ],
)
def test_a_bad_entry_is_one_line_naming_the_file_and_key(
    tmp_path: Path, table: str, key: str, problem: str
) -> None:
    root = tree(tmp_path, table)
    done = run_toolwire(["check", "app"], root)
    assert_no_traceback(done)
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("toolwire: "), line
    assert f"pyproject.toml: [tool.toolwire] {key}: " in line and problem in line, line


def test_a_nested_table_uses_its_own_globs_relative_to_its_own_directory(
    tmp_path: Path,
) -> None:
    root = tree(tmp_path)
    nested = """\
[tool.toolwire]
exclude = ["gen/*.py"]

[tool.toolwire.per-file-ignores]
"checks/**" = ["TW2"]
"""
    write(
        root,
        {
            "pkg/pyproject.toml": nested,
            "pkg/gen/bad.py": PY2,
            "pkg/checks/leak.py": LEAK,
            "pkg/tests/test_leak.py": LEAK,  # the outer `tests/**` is not the nested one's
            "gen/bad.py": PY2,  # the nested `gen/*.py` is relative to pkg/
            "checks/leak.py": LEAK,
        },
    )
    done = run_toolwire(["check", "."], root)
    assert done.returncode == 2, done.stdout + done.stderr
    assert codes(done) == [
        ("app/leak.py", "TW201"),
        ("checks/leak.py", "TW201"),
        ("gen/bad.py", "TW000"),
        ("pkg/tests/test_leak.py", "TW201"),
    ]
    # From inside the package, and by flake8, the same table decides.
    done = run_toolwire(["check", "."], root / "pkg")
    assert codes(done) == [("tests/test_leak.py", "TW201")]
    done = run_flake8(["--select", "TW", "pkg/checks", "pkg/tests"], root)
    assert codes(done) == [("pkg/tests/test_leak.py", "TW201")]


def test_migrate_walks_past_an_excluded_python_2_file(tmp_path: Path) -> None:
    root = tree(tmp_path)
    done = run_toolwire(["migrate", "--check", "."], root)
    assert_no_traceback(done)
    assert "py2.py" not in done.stdout + done.stderr
    assert "old_script.py" not in done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("2 files scanned"), done.stdout  # app/ and tests/ only


def test_stdin_under_an_excluded_name_is_skipped_only_with_force_exclude(tmp_path: Path) -> None:
    root = tree(tmp_path)
    args = ["check", "--stdin-filename", "legacy/py2.py", "-"]
    done = run_toolwire(args, root, stdin=PY2)
    assert done.returncode == 2, done.stdout + done.stderr
    assert codes(done) == [("legacy/py2.py", "TW000")]
    (root / "pyproject.toml").write_text(TABLE.replace("]\n", "]\nforce-exclude = true\n", 1))
    done = run_toolwire(args, root, stdin=PY2)
    assert done.returncode == 0, done.stdout + done.stderr
    assert codes(done) == []
    done = run_toolwire(["check", "--stdin-filename", "app/leak.py", "-"], root, stdin=LEAK)
    assert codes(done) == [("app/leak.py", "TW201")]


def test_migrate_config_option_takes_that_files_globs(tmp_path: Path) -> None:
    write(tmp_path, {"legacy/old.py": PY2, "own.toml": '[tool.toolwire]\nexclude = ["legacy/"]\n'})
    plain = run_toolwire(["migrate", "--check", "."], tmp_path)
    assert plain.stdout.startswith("1 file scanned"), plain.stdout + plain.stderr
    configured = run_toolwire(["migrate", "--check", "--config", "own.toml", "."], tmp_path)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    assert configured.stdout.startswith("0 files scanned"), configured.stdout
