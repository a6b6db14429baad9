"""The per-unit pre-filter (`irrelevant_units`): which top-level definitions the flow may
skip. A skipped unit is one no check can report in; this pins both directions."""

from __future__ import annotations

import ast
from pathlib import Path

from toolwire.lint.analysis.units import irrelevant_units
from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source
from toolwire.lint.prefilter import Prefilter

CONFIG = load_config(Path(__file__).parents[1] / "fixtures" / "pyproject.toml")
MARKERS = Prefilter.of(CONFIG).markers


def skipped(source: str) -> set[str]:
    tree = ast.parse(source)
    skip = irrelevant_units(tree, source, MARKERS)
    assert skip is not None
    return {n.name for n in tree.body if id(n) in skip and isinstance(n, ast.ClassDef)}


def test_a_tool_method_marker_needs_the_declared_method() -> None:
    assert "def execute" in MARKERS
    source = (
        "class Cursor:\n"  # django's cursor: `execute` with no return annotation
        "    def execute(self, sql, params=None):\n"
        "        return self.cursor.execute(sql, params)\n"
        "\n"
        "class Compiler:\n"
        "    def execute_sql(self, result_type=None) -> str:\n"
        "        return ''\n"
        "\n"
        "class Tool:\n"
        "    def execute(self, arguments: dict[str, str]) -> str:\n"
        "        return repr(arguments)\n"
    )
    assert skipped(source) == {"Cursor", "Compiler"}


def test_a_unit_naming_a_relevant_unit_is_kept() -> None:
    source = (
        "class Tool:\n"
        "    def execute(self, arguments: dict[str, str]) -> str:\n"
        "        return ''\n"
        "\n"
        "class Registry:\n"
        "    tools = [Tool()]\n"
        "\n"
        "class Other:\n"
        "    pass\n"
    )
    assert skipped(source) == {"Other"}


def test_a_declared_tool_method_is_still_checked() -> None:
    source = (
        "from app.chat import ChatMessage\n"
        "\n"
        "class Tool:\n"
        "    def execute(self, arguments: dict[str, str]) -> str:\n"
        "        return 'ok'\n"
        "\n"
        "def send(tool: Tool) -> None:\n"
        "    result = tool.execute({})\n"
        "    ChatMessage.tool_result('id', content=str(result))\n"
    )
    found = check_source(source, "m.py", CONFIG, module="m")
    assert found, "the tool class must not be skipped"
