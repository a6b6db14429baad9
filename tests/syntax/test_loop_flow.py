"""Loop-carried flow: a value bound on a later pass of a loop body reaches a sink that the
first pass saw clean. Only iterating the body to its fixpoint finds these."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source

CONFIG = load_config(Path(__file__).parents[1] / "fixtures" / "pyproject.toml")
HEAD = """from app.chat import ChatMessage
from toolwire import ToolResult


def reply(call_id: str, texts: list[str]) -> None:
"""

SECOND_PASS = """    previous = "start"
    for text in texts:
        ChatMessage.tool_result(call_id, previous)  # the result of the pass before
        previous = ToolResult.text(text)
"""

THIRD_PASS = """    older = "start"
    newer = "start"
    for text in texts:
        ChatMessage.tool_result(call_id, older)  # two passes after the result was made
        older = newer
        newer = ToolResult.text(text)
"""

WHILE_LOOP = """    previous = "start"
    while texts:
        ChatMessage.tool_result(call_id, previous)
        previous = ToolResult.text(texts.pop())
"""

CLEAN = """    previous = "start"
    for text in texts:
        ChatMessage.tool_result(call_id, previous)
        result = ToolResult.text(text)
        previous = result.content
"""


@pytest.mark.parametrize("body", [SECOND_PASS, THIRD_PASS, WHILE_LOOP], ids=["2nd", "3rd", "while"])
def test_a_value_bound_on_a_later_pass_reaches_the_sink(body: str) -> None:
    source = HEAD + body
    sink = next(n for n, line in enumerate(source.splitlines(), 1) if "tool_result" in line)
    found = [(f.line, f.code) for f in check_source(source, "m.py", CONFIG)]
    assert found == [(sink, "TW301")]


def test_content_carried_around_the_loop_is_clean() -> None:
    assert check_source(HEAD + CLEAN, "m.py", CONFIG) == []
