"""The per-unit pre-filter (`irrelevant_units`): which top-level definitions the flow may
skip. A skipped unit is one no check can report in; this pins both directions."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.lint.analysis.units import irrelevant_units
from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source
from toolwire.lint.prefilter import Prefilter, _quoted, named_in

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


# Many markers (over 32: a migrate run's known tool classes) are looked for in the text's
# distinct words (`prefilter.named_in`): the verdict must be `key in text`, key by key.
_ALPHABET = "abT_1é .(\n\"'#"
_KEYS = st.text(alphabet=_ALPHABET, min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=80), st.lists(_KEYS, min_size=33, max_size=60))
def test_named_in_is_key_in_text(text: str, keys: list[str]) -> None:
    assert sorted(named_in(text, keys)) == sorted(k for k in keys if k in text)


def test_many_markers_skip_the_same_units_as_a_few() -> None:
    source = (
        "from tools import Tool7\n\n"
        "class ToolBox:\n    parts = [Tool7()]\n\n"
        "def helper():\n    return ToolBox()\n\n"
        "def myTool12(x):\n    return x\n\n"
        "def plain():\n    return 'Tool30 in a string'\n\n"
        "def other():\n    return 1\n"
    )
    known = [f"Tool{i}" for i in range(40)]
    tree = ast.parse(source)
    many = irrelevant_units(tree, source, (*MARKERS, *known))
    assert many is not None
    names = {n.name for n in tree.body if id(n) in many and hasattr(n, "name")}
    assert names == {"other"}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="to\"'l_ x", max_size=40), st.text(alphabet="tol_", max_size=4))
def test_a_quoted_value_is_found_as_its_four_quoted_forms(text: str, value: str) -> None:
    forms = [f"{a}{value}{b}" for a in "\"'" for b in "\"'"]
    assert _quoted(text, value) == any(form in text for form in forms)
