"""One naming pattern for the adapters (docs/frameworks/index.md), the old names kept.

`result_tool` wraps a tool function and `ResultTool` is a class tool's base in every
adapter whose framework has one; the names used before stay, as the same objects.
"""

from __future__ import annotations

import importlib

import pytest

# adapter module -> (the pattern's name, the old name it is an alias of)
ALIASES = [
    ("langchain", "ResultTool", "ToolResultTool"),
    ("crewai", "result_tool", "tool"),
    ("smolagents", "result_tool", "tool"),
    ("pydantic_ai", "ResultTool", "ResultToolset"),
]


@pytest.mark.parametrize(("adapter", "name", "old"), ALIASES)
def test_the_patterns_name_is_the_old_object(adapter: str, name: str, old: str) -> None:
    module = importlib.import_module(f"toolwire.adapters.{adapter}")
    assert getattr(module, name) is getattr(module, old)
    assert {name, old} <= set(module.__all__)
