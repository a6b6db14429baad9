"""`toolwire check --add-noqa`, through the real `toolwire` command and real flake8."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from frontend_helpers import CONFIG, assert_no_traceback, run_flake8, run_toolwire, write

BEFORE = '''\
import logging

from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)  # noqa: E501


def again(result: ToolResult) -> str:
    text = """
    {}
    """.format(result)
    logging.info("%s", result); print(result)
    return text + \\
        str(result)


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": result,
    }


def clean(result: ToolResult) -> str:
    return result.content  # a comment of its own
'''
# Codes merge into an existing `# noqa:`; a multi-line string or a backslash continuation
# takes the comment on its last line, as ruff and flake8 read it; inside brackets, the
# finding's own line.
AFTER = '''\
import logging

from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)  # noqa: E501, TW201


def again(result: ToolResult) -> str:
    text = """
    {}
    """.format(result)  # noqa: TW202
    logging.info("%s", result); print(result)  # noqa: TW204
    return text + \\
        str(result)  # noqa: TW201


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": result,  # noqa: TW301
    }


def clean(result: ToolResult) -> str:
    return result.content  # a comment of its own
'''


def test_add_noqa_silences_check_and_flake8_and_is_idempotent(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": BEFORE})
    os.chmod(root / "leak.py", 0o640)
    assert run_toolwire(["check", "."], cwd=root).returncode == 1
    assert run_flake8(["--select", "TW", "leak.py"], root).returncode == 1
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert_no_traceback(done)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == "toolwire: added 5 noqa comments in 1 file\n"
    text = (root / "leak.py").read_text(encoding="utf-8")
    assert text == AFTER
    ast.parse(text)
    assert (root / "leak.py").stat().st_mode & 0o777 == 0o640
    check = run_toolwire(["check", "."], cwd=root)
    assert (check.returncode, check.stdout) == (0, "")
    flake8 = run_flake8(["--select", "TW", "leak.py"], root)
    assert (flake8.returncode, flake8.stdout) == (0, "")
    again = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert (again.returncode, again.stderr) == (0, "toolwire: added 0 noqa comments\n")
    assert (root / "leak.py").read_text(encoding="utf-8") == AFTER


def test_add_noqa_keeps_line_endings_and_the_coding(tmp_path: Path) -> None:
    source = "# -*- coding: latin-1 -*-\r\nfrom toolwire import ToolResult\r\n\r\n\r\n"
    source += "def show(result: ToolResult) -> str:\r\n    return 'é' + str(result)\r\n"
    root = write(tmp_path, {"pyproject.toml": CONFIG})
    (root / "leak.py").write_bytes(source.encode("latin-1"))
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert done.returncode == 0, done.stderr
    expected = source.replace("str(result)\r\n", "str(result)  # noqa: TW201\r\n")
    assert (root / "leak.py").read_bytes() == expected.encode("latin-1")


def test_input_errors_are_reported_and_the_rest_gets_comments(tmp_path: Path) -> None:
    leak = "from toolwire import ToolResult\n\n\ndef f(r: ToolResult) -> str:\n    return str(r)\n"
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": leak, "bad.py": "def (:\n"})
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert done.returncode == 2
    assert done.stdout.startswith("bad.py:1:")
    assert "added 1 noqa comment in 1 file" in done.stderr
    assert (root / "leak.py").read_text().endswith("str(r)  # noqa: TW201\n")
    assert (root / "bad.py").read_text() == "def (:\n"


def test_add_noqa_refuses_stdin_and_a_baseline(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG})
    for args in (["-"], ["--baseline", "b.json", "."]):
        done = run_toolwire(["check", "--add-noqa", *args], cwd=root)
        assert done.returncode == 2 and "Error: --add-noqa" in done.stderr, done.stderr


def test_with_a_baseline_in_the_config_only_new_findings_get_comments(tmp_path: Path) -> None:
    old = "from toolwire import ToolResult\n\n\ndef f(r: ToolResult) -> str:\n    return str(r)\n"
    config = CONFIG + 'baseline = "tw.json"\n'
    root = write(tmp_path, {"pyproject.toml": config, "old.py": old})
    # No baseline yet: --add-noqa does not write one, it comments every finding.
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert done.returncode == 0 and not (root / "tw.json").exists()
    (root / "old.py").write_text(old, encoding="utf-8")
    assert run_toolwire(["check", "."], cwd=root).returncode == 0  # records the baseline
    (root / "new.py").write_text(old.replace("def f", "def g"), encoding="utf-8")
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert done.stderr == "toolwire: added 1 noqa comment in 1 file\n"
    assert (root / "old.py").read_text(encoding="utf-8") == old
    assert (root / "new.py").read_text(encoding="utf-8").endswith("str(r)  # noqa: TW201\n")


def test_codes_go_after_the_codes_flake8_reads(tmp_path: Path) -> None:
    def leak(comment: str) -> str:
        head = "from toolwire import ToolResult\n\n\ndef f(r: ToolResult) -> str:\n"
        return f"{head}    return str(r)  # {comment}\n"

    comments = {
        "noqa: E501 long url": "noqa: E501, TW201 long url",
        "noqa: E501,W291": "noqa: E501,W291, TW201",
        "noqa:because": "noqa:TW201, because",
        "toolwire: ignore[TW301]": "toolwire: ignore[TW301]  # noqa: TW201",
    }
    root = write(tmp_path, {"pyproject.toml": CONFIG})
    for number, comment in enumerate(comments):
        (root / f"m{number}.py").write_text(leak(comment), encoding="utf-8")
    done = run_toolwire(["check", "--add-noqa", "."], cwd=root)
    assert done.stderr == "toolwire: added 4 noqa comments in 4 files\n"
    for number, after in enumerate(comments.values()):
        assert (root / f"m{number}.py").read_text(encoding="utf-8") == leak(after)
    assert run_toolwire(["check", "."], cwd=root).returncode == 0
    flake8 = run_flake8(["--select", "TW", "."], root)
    assert (flake8.returncode, flake8.stdout) == (0, "")
