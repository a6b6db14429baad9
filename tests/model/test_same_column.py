"""The two layers put a finding they share at the same line and column (an editor that
runs both, such as pylsp with flake8 and mypy, shows it once): the stringify rules at the
operation (the call, `%`, the interpolated value of an f-string), the sink rules at the
payload. Through the real `toolwire check` and the real mypy with the plugin."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from frontend_helpers import toolwire_command

SOURCE = """\
import json
import logging

from toolwire import ToolResult


def formatted(result: ToolResult) -> str:
    # mypy shows one of two equal messages on a line: one form a line
    text = "x" + f"Tool execution result: {result}"
    return text + "a {}".format(result)


def logged(result: ToolResult) -> None:
    logging.getLogger().info("got %s", result)


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"r={result!r}"}


def stringified(result: ToolResult) -> str:
    return str(result) + repr(result) + json.dumps(result) + "-".join([result])
"""
CONFIG = """\
[tool.toolwire]
presets = ["openai"]

[tool.mypy]
plugins = ["toolwire.mypy"]
show_column_numbers = true
"""
_MYPY = re.compile(r"^m\.py:(\d+):(\d+): error: (TW\d{3}) ")


def test_a_shared_finding_has_one_position(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    checked = subprocess.run(
        [*toolwire_command(), "check", "--format", "json", "--exit-zero", "m.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    syntax = {(f["line"], f["column"], f["code"]) for f in json.loads(checked.stdout)["findings"]}
    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "m.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    mypy = {
        (int(m[1]), int(m[2]), m[3])
        for line in typed.stdout.splitlines()
        if (m := _MYPY.match(line))
    }
    shared = {(line, code) for line, _, code in syntax} & {(line, code) for line, _, code in mypy}
    assert len(shared) >= 6, (syntax, mypy, typed.stdout)
    for line, code in sorted(shared):
        at_syntax = {c for n, c, k in syntax if (n, k) == (line, code)}
        at_mypy = {c for n, c, k in mypy if (n, k) == (line, code)}
        assert at_syntax == at_mypy, f"{code} on line {line}: {at_syntax} vs {at_mypy}"
