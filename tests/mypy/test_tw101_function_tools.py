"""TW101 on framework function tools in the mypy layer, beside the syntax layer.

mypy type-checks a decorator's application as a call of the decorator with the function
(`checker.visit_decorator`), named by the decorator's fullname or its instance method's:
the plugin hooks the presets' `[[function-tools]]` decorators there. One module, the real
mypy with the plugin and the real `toolwire check`: both flag the same `def` lines with
the same words, except the forms rules/TW101.md says mypy cannot see (a decorator
returned by a call, a function handed to a factory), which only the syntax layer flags.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from frontend_helpers import toolwire_command
from mypy_harness import make_project, run_mypy

pytest.importorskip("pydantic_ai")
pytest.importorskip("fastmcp")
pytest.importorskip("agents")

SOURCE = '''\
from langchain_core.tools import tool
from agents import function_tool
from fastmcp import FastMCP
from pydantic_ai import Agent, FunctionToolset
from toolwire import ToolResult
from toolwire.adapters.pydantic_ai import result_tool

mcp = FastMCP("notes")
agent = Agent("test")
toolset = FunctionToolset()


@tool
def shout(text: str) -> str:
    """Shout."""
    return text.upper()


@function_tool
async def weather(city: str) -> str:
    return f"sunny in {city}"


@mcp.tool
def count(text: str) -> str:
    return str(len(text))


@agent.tool_plain
def whisper(text: str) -> str:
    return text.lower()


class Tools:
    @toolset.tool_plain
    def stamp(self, text: str) -> str:
        return f"[{text}]"


@mcp.tool()
def called(text: str) -> str:  # a decorator returned by a call: syntax layer only
    return text


@toolset.tool_plain
@result_tool
def done(text: str) -> ToolResult:
    return ToolResult.text(text)


@agent.tool_plain
def listing(text: str) -> list[str]:
    return [text]


def plain(text: str) -> str:
    return text


applied = tool(plain)  # the decorator called in code: neither layer
'''
BOTH = {"shout", "weather", "count", "whisper", "Tools.stamp"}
SYNTAX_ONLY = {"called"}


def _line(name: str) -> int:
    tail = name.rpartition(".")[2]
    lines = SOURCE.splitlines()
    return next(i for i, text in enumerate(lines, 1) if f"def {tail}(" in text)


def test_both_layers_flag_the_decorated_tools_mypy_can_see(
    tmp_path: Path, framework_mypy_cache: Path
) -> None:
    presets = ["langchain", "openai-agents", "fastmcp", "pydantic-ai"]
    config = make_project(tmp_path, {"tools.py": SOURCE}, table={"presets": presets})
    run = run_mypy(tmp_path, ["tools.py"], config=config, cache_dir=framework_mypy_cache)
    assert not run.internal_errors(), run.stdout + run.stderr
    typed = {(m.line, m.text) for m in run.messages if m.tw == "TW101"}

    done = subprocess.run(
        [*toolwire_command(), "check", "--format", "json", "--select", "TW101", "tools.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    syntax = {(f["line"], f"TW101 {f['message']}") for f in json.loads(done.stdout)["findings"]}

    assert {line for line, _ in syntax} == {_line(n) for n in BOTH | SYNTAX_ONLY}
    assert {line for line, _ in typed} == {_line(n) for n in BOTH}
    assert typed <= syntax  # the same line, the same words
    assert "TW101 tool Tools.stamp() returns str" in dict(typed)[_line("Tools.stamp")]
