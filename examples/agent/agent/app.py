"""Wires the builtin tools into a loop and replays a canned model turn."""

from __future__ import annotations

import json

from agent.chat import ToolCall
from agent.loop import ToolLoop
from agent.tools.base import Tool
from agent.tools.calculator import CalculatorTool
from agent.tools.files import FileListTool
from agent.tools.glossary import GlossaryTool
from agent.tools.memory import MemoryTool
from agent.tools.records import RecordsTool
from agent.tools.units import UnitConversionTool
from agent.tools.weather import WeatherTool
from agent.tools.word_count import WordCountTool


def builtin_tools() -> list[Tool]:
    return [
        CalculatorTool(),
        WordCountTool(),
        UnitConversionTool(),
        WeatherTool(),
        MemoryTool(),
        GlossaryTool(),
        RecordsTool(),
        FileListTool(),
    ]


def build_loop(*, verbose: bool = False, echo_results: bool = False) -> ToolLoop:
    return ToolLoop(
        builtin_tools(),
        plain_text_tools={MemoryTool.name},
        verbose=verbose,
        echo_results=echo_results,
    )


def main() -> None:
    """Replays one model turn that calls a few tools and prints the provider messages."""
    calls = [
        ToolCall("call_1", "calculator", {"expression": "(1 + 2) * 7"}),
        ToolCall("call_2", "records", {"department": "research"}),
        ToolCall("call_3", "list_files", {"path": "/docs"}),
    ]
    for message in build_loop().run(calls):
        print(json.dumps(message.to_provider(), indent=2))


if __name__ == "__main__":
    main()
