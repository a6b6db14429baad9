"""Running the real entry points in subprocesses, on real files, and reading their output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TEXT_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>TW\d{3}) (?P<msg>.+)$")

# A module that leaks in two ways the rule catalog documents (TW201 in rules/TW201.md,
# TW301 through the openai preset in rules/TW301.md).
LEAK = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": result}
"""
LEAK_EXPECTED = [(5, "TW201"), (9, "TW301")]
CLEAN = """\
from toolwire import ToolResult


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": result.content}
"""
BROKEN = "def broken(:\n    pass\n"
CONFIG = '[tool.toolwire]\npresets = ["openai"]\n'


def toolwire_command() -> list[str]:
    script = Path(sys.executable).with_name("toolwire")
    if script.is_file():
        return [str(script)]
    found = shutil.which("toolwire")
    return [found] if found else [sys.executable, "-m", "toolwire.lint.cli"]


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(extra or {})
    return env


def run_toolwire(
    args: Sequence[str],
    cwd: Path,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*toolwire_command(), *args],
        cwd=cwd,
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        env=_env(env),
        timeout=120,
    )


def run_flake8(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=_env(None),
        timeout=120,
    )


def text_findings(output: str) -> list[tuple[str, int, int, str]]:
    """(path, line, column, code) of every line; any other line fails the test."""
    found = []
    for line in output.splitlines():
        match = TEXT_LINE.match(line)
        assert match, f"not a finding line: {line!r}"
        found.append((match["path"], int(match["line"]), int(match["col"]), match["code"]))
    return found


def json_findings(output: str) -> list[tuple[str, int, int, str]]:
    data: dict[str, Any] = json.loads(output)
    return [(f["path"], f["line"], f["column"], f["code"]) for f in data["findings"]]


def line_codes(found: Sequence[tuple[str, int, int, str]], path: str) -> list[tuple[int, str]]:
    return sorted((line, code) for p, line, _, code in found if p == path)


def assert_no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root
