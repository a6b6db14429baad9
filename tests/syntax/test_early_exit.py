"""After `if isinstance(x, <result type>): ...; return`, only the other branch flows on,
where `x` is no single result; every state that can flow on still does (issue #23)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TOOLWIRE = str(Path(sys.executable).parent / "toolwire")
PYPROJECT = """[tool.toolwire]
wire-sinks = ["app.chat.ChatMessage.tool_result:1=content"]
"""

SOURCE = """from contextlib import suppress

from app.chat import ChatMessage
from toolwire import ToolResult


def returns(i: str, r: ToolResult | str) -> object:
    if isinstance(r, ToolResult):
        return ChatMessage.tool_result(i, r.content)
    return ChatMessage.tool_result(i, r)


def raises_in_both(i: str, r: ToolResult | str, strict: bool) -> object:
    if not isinstance(r, str):
        if strict:
            raise ValueError(r.content)
        else:
            return ChatMessage.tool_result(i, r.content)
    return ChatMessage.tool_result(i, r)


def or_none(i: str, r: ToolResult | str | None) -> object:
    if isinstance(r, ToolResult) or r is None:
        return None
    return ChatMessage.tool_result(i, r)


def one_branch_goes_on(i: str, r: ToolResult | str, verbose: bool) -> object:
    if isinstance(r, ToolResult):
        if verbose:
            return None
    return ChatMessage.tool_result(i, r)  # flagged


def continue_flows_on(i: str, rs: list[ToolResult | str]) -> object:
    last: ToolResult | str = ""
    for r in rs:
        last = r
        if isinstance(r, ToolResult):
            continue
    return ChatMessage.tool_result(i, last)  # flagged


def bound_then_returned(i: str, r: ToolResult | str, flag: bool) -> object:
    out: object = ""
    if flag:
        out = r
        return None
    return ChatMessage.tool_result(i, out)


def a_finally_sees_the_exit(i: str, r: ToolResult | str) -> object:
    try:
        if isinstance(r, ToolResult):
            return None
    finally:
        ChatMessage.tool_result(i, r)  # flagged
    return None


def a_handler_sees_the_raise(i: str, r: ToolResult | str) -> object:
    try:
        if isinstance(r, ToolResult):
            raise ValueError("typed")
    except ValueError:
        return ChatMessage.tool_result(i, r)  # flagged
    return None


def a_context_manager_swallows_it(i: str, r: ToolResult | str) -> object:
    with suppress(ValueError):
        if isinstance(r, ToolResult):
            raise ValueError("typed")
    return ChatMessage.tool_result(i, r)  # flagged


def a_nested_function_is_not_in_the_try(i: str, r: ToolResult | str) -> object:
    try:

        def inner(x: ToolResult | str) -> object:
            if isinstance(x, ToolResult):
                return None
            return ChatMessage.tool_result(i, x)

        return inner(r)
    except ValueError:
        return None
"""


def test_only_the_branch_that_goes_on_flows_on(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    done = subprocess.run(
        [TOOLWIRE, "check", "m.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode in (0, 1), done.stderr
    found = sorted(
        int(line.split(":")[1]) for line in done.stdout.splitlines() if line.startswith("m.py:")
    )
    flagged = [n for n, line in enumerate(SOURCE.splitlines(), 1) if line.endswith("# flagged")]
    assert found == flagged, done.stdout
