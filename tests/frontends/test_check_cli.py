"""`toolwire check`, run as the installed console script on real files."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from frontend_helpers import (
    BROKEN,
    CLEAN,
    CONFIG,
    LEAK,
    LEAK_EXPECTED,
    assert_no_traceback,
    json_findings,
    line_codes,
    run_toolwire,
    text_findings,
    write,
)

from toolwire.lint.commands.check import Task, check_file
from toolwire.lint.config import load_config
from toolwire.lint.files import read
from toolwire.lint.findings import Finding

FORMATS = ("text", "json", "sarif", "github", "junit")


def _sarif_findings(output: str) -> list[tuple[str, int, int, str]]:
    run = json.loads(output)["runs"][0]
    found = []
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        region = location["region"]
        found.append(
            (
                location["artifactLocation"]["uri"],
                region["startLine"],
                region["startColumn"],
                result["ruleId"],
            )
        )
    return found


def _github_findings(output: str) -> list[tuple[str, int, int, str]]:
    found = []
    for line in output.splitlines():
        if not line.startswith("::error file="):
            continue
        head = line[len("::error ") :].split("::", 1)[0]
        props = dict(item.split("=", 1) for item in head.split(","))
        found.append((props["file"], int(props["line"]), int(props["col"]), props["title"]))
    return found


def _junit_findings(output: str) -> list[tuple[str, int, int, str]]:
    from xml.etree import ElementTree as ET

    return [
        (case.get("file", ""), int(case.get("line", "")), int(case.get("column", "")), code)
        for case in ET.fromstring(output).iter("testcase")
        for code in [failure.get("type", "") for failure in case.iter("failure")]
    ]


PARSERS = {
    "text": text_findings,
    "json": json_findings,
    "sarif": _sarif_findings,
    "github": _github_findings,
    "junit": _junit_findings,
}


@pytest.fixture
def mixed(project: Path) -> Path:
    """The leak project plus two files that do not parse."""
    return write(project, {"broken.py": BROKEN, "pkg/also_broken.py": "x = (\n"})


# -- formats -----------------------------------------------------------------------------


def test_every_format_reports_the_same_findings(mixed: Path) -> None:
    outputs = {fmt: run_toolwire(["check", "--format", fmt], cwd=mixed) for fmt in FORMATS}
    parsed = {}
    for fmt, result in outputs.items():
        assert_no_traceback(result)
        assert result.returncode == 2, (fmt, result.stderr)
        parsed[fmt] = sorted(PARSERS[fmt](result.stdout))
    assert {c for *_, c in parsed["text"]} >= {"TW000"}
    for fmt in FORMATS:
        assert parsed[fmt] == parsed["text"], fmt


def test_text_format_is_sorted_and_summarised(mixed: Path) -> None:
    result = run_toolwire(["check"], cwd=mixed)
    found = text_findings(result.stdout)
    assert found == sorted(found, key=lambda f: (f[0], f[1], f[2]))
    assert any(p == "broken.py" and c == "TW000" for p, _, _, c in found)
    assert any(p == "pkg/also_broken.py" and c == "TW000" for p, _, _, c in found)
    summary = result.stderr.strip().splitlines()[-1]
    files_with = len({p for p, *_ in found})
    assert summary.startswith(f"toolwire: {len(found)} finding")
    assert f"in {files_with} of 4 files" in summary
    assert "2 input errors" in summary


def test_leaks_are_reported_with_exit_1(project: Path) -> None:
    result = run_toolwire(["check", "--format", "json"], cwd=project)
    assert_no_traceback(result)
    assert line_codes(json_findings(result.stdout), "leak.py") == LEAK_EXPECTED
    assert line_codes(json_findings(result.stdout), "clean.py") == []
    assert result.returncode == 1


def test_clean_project_exits_0(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "clean.py": CLEAN})
    result = run_toolwire(["check"], cwd=root)
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr.strip().splitlines()[-1] == "toolwire: no findings in 1 file"


def test_json_summary_counts(mixed: Path) -> None:
    data = json.loads(run_toolwire(["check", "--format", "json"], cwd=mixed).stdout)
    assert data["version"] == 1
    summary = data["summary"]
    assert summary["files_checked"] == 4
    assert summary["findings"] == len(data["findings"])
    assert summary["input_errors"] == sum(f["code"] == "TW000" for f in data["findings"]) == 2
    assert summary["by_code"]["TW000"] == 2


# -- exit codes ----------------------------------------------------------------------------


def test_input_errors_win_over_findings(mixed: Path) -> None:
    result = run_toolwire(["check", "--format", "json"], cwd=mixed)
    assert line_codes(json_findings(result.stdout), "leak.py") == LEAK_EXPECTED
    assert result.returncode == 2


def test_exit_zero_silences_findings_only(project: Path, mixed: Path) -> None:
    leaks = run_toolwire(["check", "--exit-zero", "leak.py"], cwd=project)
    assert text_findings(leaks.stdout), "expected findings in leak.py"
    assert leaks.returncode == 0
    broken = run_toolwire(["check", "--exit-zero", "broken.py"], cwd=mixed)
    assert [c for *_, c in text_findings(broken.stdout)] == ["TW000"]
    assert broken.returncode == 2


def test_syntax_error_does_not_stop_the_run(mixed: Path) -> None:
    result = run_toolwire(["check", "--format", "json", "--jobs", "1"], cwd=mixed)
    data = json.loads(result.stdout)
    broken = sorted(f["path"] for f in data["findings"] if f["code"] == "TW000")
    assert broken == ["broken.py", "pkg/also_broken.py"]
    assert data["summary"]["files_checked"] == 4
    assert_no_traceback(result)


def test_syntax_error_and_findings_of_other_files(mixed: Path) -> None:
    found = json_findings(run_toolwire(["check", "--format", "json"], cwd=mixed).stdout)
    assert line_codes(found, "leak.py") == LEAK_EXPECTED


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    result = run_toolwire(["check", "nope.py"], cwd=tmp_path)
    assert result.returncode == 2
    assert text_findings(result.stdout) == [("nope.py", 1, 1, "TW000")]
    assert "No such file" in result.stdout


def test_unreadable_file_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    target = write(tmp_path, {"secret.py": "x = 1\n"}) / "secret.py"
    target.chmod(0)
    result = run_toolwire(["check", "secret.py"], cwd=tmp_path)
    assert result.stdout == "secret.py:1:1: TW000 cannot read: Permission denied\n"
    assert result.returncode == 2


# -- stdin ---------------------------------------------------------------------------------


def test_stdin_uses_the_given_name(project: Path) -> None:
    result = run_toolwire(["check", "-", "--stdin-filename", "sub/x.py"], cwd=project, stdin=BROKEN)
    assert [(p, c) for p, _, _, c in text_findings(result.stdout)] == [("sub/x.py", "TW000")]
    assert result.returncode == 2
    assert "in 1 of 1 file " in result.stderr


def test_stdin_leaks(project: Path) -> None:
    result = run_toolwire(
        ["check", "--format", "json", "-", "--stdin-filename", "from_stdin.py"],
        cwd=project,
        stdin=LEAK,
    )
    assert line_codes(json_findings(result.stdout), "from_stdin.py") == LEAK_EXPECTED


def test_stdin_filename_finds_its_config(tmp_path: Path) -> None:
    write(tmp_path, {"bad/pyproject.toml": "[tool.toolwire]\nwhatever = 1\n"})
    result = run_toolwire(["check", "-", "--stdin-filename", "bad/x.py"], cwd=tmp_path, stdin="")
    assert result.returncode == 2
    assert "whatever" in result.stderr


# -- select / ignore / config --------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "kept"),
    [
        (["--select", "TW2"], ["TW201"]),
        (["--select", "TW301,TW201"], ["TW201", "TW301"]),
        (["--select", "TW301", "--select", "TW201"], ["TW201", "TW301"]),
        (["--ignore", "TW201"], ["TW301"]),
        (["--select", "TW", "--ignore", "TW3"], ["TW201"]),
    ],
)
def test_select_and_ignore(project: Path, options: list[str], kept: list[str]) -> None:
    result = run_toolwire(["check", "--format", "json", *options, "leak.py"], cwd=project)
    expected = [(line, code) for line, code in LEAK_EXPECTED if code in kept]
    assert line_codes(json_findings(result.stdout), "leak.py") == expected


def test_cli_select_overrides_config(project: Path) -> None:
    (project / "pyproject.toml").write_text(CONFIG + 'select = ["TW3"]\n', encoding="utf-8")
    by_config = run_toolwire(["check", "--format", "json", "leak.py"], cwd=project)
    assert line_codes(json_findings(by_config.stdout), "leak.py") == [(9, "TW301")]
    by_cli = run_toolwire(["check", "--format", "json", "--select", "TW2", "leak.py"], cwd=project)
    assert line_codes(json_findings(by_cli.stdout), "leak.py") == [(5, "TW201")]


def test_bad_select_is_a_usage_error(project: Path) -> None:
    result = run_toolwire(["check", "--select", "E501"], cwd=project)
    assert result.returncode == 2
    assert "E501" in result.stderr
    assert_no_traceback(result)


def test_config_option_replaces_the_nearest(project: Path, tmp_path: Path) -> None:
    other = write(tmp_path / "elsewhere", {"toolwire.toml": "[toolwire]\nignore = ['TW201']\n"})
    result = run_toolwire(
        ["check", "--format", "json", "--config", str(other / "toolwire.toml"), "leak.py"],
        cwd=project,
    )
    assert line_codes(json_findings(result.stdout), "leak.py") == []
    assert any("no wire sinks configured" in n for n in json.loads(result.stdout)["notes"])


def test_wire_note_only_without_sinks(project: Path, tmp_path: Path) -> None:
    with_sinks = run_toolwire(["check", "clean.py"], cwd=project)
    assert "TW301/TW302" not in with_sinks.stderr
    bare = write(tmp_path / "bare", {"pyproject.toml": "[tool.toolwire]\n", "clean.py": CLEAN})
    without = run_toolwire(["check"], cwd=bare)
    assert without.stderr.count("TW301/TW302 are silent") == 1
    assert without.returncode == 0
    data = json.loads(run_toolwire(["check", "--format", "json"], cwd=bare).stdout)
    assert any("TW301/TW302" in note for note in data["notes"])


def test_bad_config_names_key_and_file(project: Path) -> None:
    (project / "pyproject.toml").write_text(CONFIG + "wire_sinks = []\n", encoding="utf-8")
    result = run_toolwire(["check"], cwd=project)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("toolwire: ")
    assert "wire_sinks" in lines[0]
    assert str(project / "pyproject.toml") in lines[0]
    assert_no_traceback(result)


def test_missing_config_file(project: Path) -> None:
    result = run_toolwire(["check", "--config", "missing.toml"], cwd=project)
    assert result.returncode == 2
    assert result.stderr.startswith("toolwire: missing.toml: cannot read")
    assert_no_traceback(result)


# -- suppressions --------------------------------------------------------------------------


def test_noqa_and_toolwire_ignore(project: Path) -> None:
    suppressed = LEAK.replace("str(result)", "str(result)  # noqa: TW201").replace(
        '"content": result}', '"content": result}  # toolwire: ignore[TW301]'
    )
    other_code = LEAK.replace("str(result)", "str(result)  # noqa: TW301")
    write(project, {"suppressed.py": suppressed, "other_code.py": other_code})
    result = run_toolwire(["check", "--format", "json", "."], cwd=project)
    found = json_findings(result.stdout)
    assert line_codes(found, "leak.py") == LEAK_EXPECTED
    assert line_codes(found, "suppressed.py") == []
    assert line_codes(found, "other_code.py") == LEAK_EXPECTED


# -- discovery -----------------------------------------------------------------------------


def _reported(root: Path, *args: str) -> list[str]:
    result = run_toolwire(["check", "--format", "json", *args], cwd=root)
    assert_no_traceback(result)
    return sorted(f["path"] for f in json.loads(result.stdout)["findings"])


def test_gitignore_and_tool_directories_are_skipped(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "pyproject.toml": CONFIG,
            ".gitignore": "ignored/\n*_gen.py\n",
            "kept.py": BROKEN,
            "ignored/broken.py": BROKEN,
            "pkg/model_gen.py": BROKEN,
            "pkg/kept.py": BROKEN,
            "pkg/.gitignore": "local.py\n!keep_gen.py\n",
            "pkg/local.py": BROKEN,
            "pkg/keep_gen.py": BROKEN,
            "pkg/sub/local.py": BROKEN,
            ".venv/lib/broken.py": BROKEN,
            "venv/broken.py": BROKEN,
            "myenv/pyvenv.cfg": "home = /usr\n",
            "myenv/lib/broken.py": BROKEN,
            "build/broken.py": BROKEN,
            "dist/broken.py": BROKEN,
            "node_modules/broken.py": BROKEN,
            "toolwire_demo.egg-info/broken.py": BROKEN,
            "__pycache__/broken.py": BROKEN,
            ".tox/broken.py": BROKEN,
            "notes.txt": BROKEN,
            "stubs.pyi": BROKEN,
        },
    )
    (root / ".git").mkdir()
    expected = ["kept.py", "pkg/keep_gen.py", "pkg/kept.py", "stubs.pyi"]
    assert _reported(root) == expected
    # The repository's top-level .gitignore applies below it too.
    assert _reported(root / "pkg", ".") == ["keep_gen.py", "kept.py"]
    # A file given by name is checked even when ignored or not named *.py.
    assert _reported(root, "ignored/broken.py", "notes.txt") == ["ignored/broken.py", "notes.txt"]
    # So is a directory given by name (a stdlib inside a git-managed pyenv), while the
    # patterns that match below it still apply.
    (root / "ignored" / "x_gen.py").write_text(BROKEN)
    assert _reported(root, "ignored") == ["ignored/broken.py"]


def test_gitignore_outside_a_repository_is_still_read(tmp_path: Path) -> None:
    root = write(tmp_path, {".gitignore": "skip.py\n", "skip.py": BROKEN, "keep.py": BROKEN})
    assert _reported(root) == ["keep.py"]


def test_symlink_loop_and_dangling_link(tmp_path: Path) -> None:
    root = write(tmp_path / "proj", {"pyproject.toml": CONFIG, "pkg/broken.py": BROKEN})
    (root / "pkg" / "loop").symlink_to(root)
    (root / "pkg" / "self").symlink_to(root / "pkg" / "self")
    (root / "gone.py").symlink_to(root / "nowhere.py")
    result = run_toolwire(["check", "--format", "json"], cwd=root)
    assert_no_traceback(result)
    assert result.returncode == 2
    by_path = {f["path"]: f["message"] for f in json.loads(result.stdout)["findings"]}
    assert by_path.keys() == {"gone.py", "pkg/broken.py", "pkg/loop", "pkg/self"}
    assert "symlink loop" in by_path["pkg/loop"]
    assert "symlink loop" in by_path["pkg/self"]
    assert "dangling symlink" in by_path["gone.py"]


def test_symlinked_directory_is_walked_once(tmp_path: Path) -> None:
    root = write(tmp_path / "proj", {"real/broken.py": BROKEN})
    (root / "alias").symlink_to(root / "real")
    assert _reported(root) == ["alias/broken.py"]


def test_directory_named_like_a_module(tmp_path: Path) -> None:
    root = write(tmp_path, {"x.py/inner.py": BROKEN, "x.py/data.txt": "not python"})
    assert _reported(root) == ["x.py/inner.py"]
    assert _reported(root, "x.py") == ["x.py/inner.py"]


def test_absolute_paths_are_shown_relative(mixed: Path) -> None:
    assert _reported(mixed, str(mixed / "broken.py")) == ["broken.py"]


# -- jobs, progress, robustness ------------------------------------------------------------


def test_jobs_do_not_change_the_output(tmp_path: Path) -> None:
    files = {"pyproject.toml": CONFIG}
    for index in range(24):
        files[f"pkg{index % 3}/mod{index:02}.py"] = [LEAK, CLEAN, BROKEN][index % 3]
    root = write(tmp_path, files)
    for fmt in ("text", "json"):
        serial = run_toolwire(["check", "--format", fmt, "--jobs", "1"], cwd=root)
        assert serial.stdout, fmt
        for jobs in ("2", "0"):  # 0: one worker per core
            parallel = run_toolwire(["check", "--format", fmt, "--jobs", jobs], cwd=root)
            assert (parallel.returncode, parallel.stdout) == (serial.returncode, serial.stdout)
            assert parallel.stderr == serial.stderr


def test_no_progress_bar_in_a_pipe(tmp_path: Path) -> None:
    root = write(tmp_path, {f"m{index:02}.py": CLEAN for index in range(60)})
    result = run_toolwire(["check"], cwd=root)
    assert result.stderr.strip().splitlines()[-1] == "toolwire: no findings in 60 files"
    assert all(line.startswith("toolwire: ") for line in result.stderr.splitlines())


def test_config_pickles_for_worker_processes() -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    config = load_config(fixtures / "pyproject.toml")
    task = Task("example.py", "example.py", config, "example")
    copy = pickle.loads(pickle.dumps(task))
    assert copy == task
    assert copy.config.wire_sinks == config.wire_sinks
    assert copy.config.source == config.source


def test_a_crash_becomes_one_internal_error() -> None:
    task = Task("ok.py", "ok.py", load_config(None), None)
    findings, errors = check_file(task, source=123)  # type: ignore[arg-type]
    assert findings == []
    assert len(errors) == 1
    assert errors[0].as_text().startswith("toolwire: internal error in ok.py: TypeError: ")


def test_reading_a_directory_is_one_line(tmp_path: Path) -> None:
    problem = read(tmp_path)
    assert isinstance(problem, Finding)
    assert problem.as_text() == f"{tmp_path}:1:1: TW000 cannot read: Is a directory"
