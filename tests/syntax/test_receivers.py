"""Method sinks on instances: the receiver's class comes from an annotation or a
constructor call of a class the model knows, never from the variable's name."""

from __future__ import annotations

from toolwire.lint.config import config_from_table
from toolwire.lint.engine import check_source

CONFIG = config_from_table({"presets": ["langchain"]})
HEAD = """\
from langchain_core.chat_history import BaseChatMessageHistory
from langgraph.graph.state import CompiledStateGraph

from toolwire import ToolResult


"""


def codes(body: str) -> list[tuple[int, str]]:
    source = HEAD + body
    return [(f.line - HEAD.count("\n"), f.code) for f in check_source(source, "m.py", CONFIG)]


def test_a_parameter_annotated_as_the_class_is_typed() -> None:
    body = """\
def f(history: BaseChatMessageHistory, result: ToolResult) -> None:
    history.add_message(result.artifacts)
    history.add_message(result.content)
"""
    assert codes(body) == [(2, "TW401")]


def test_an_annotated_assignment_and_a_constructor_call_type_a_name() -> None:
    body = """\
def f(result: ToolResult, make, builder) -> None:
    history: BaseChatMessageHistory = make()
    history.add_message(result.artifacts)
    graph = CompiledStateGraph(builder)
    graph.update_state({}, {"rows": result.artifacts})
    self_made = make()
    self_made.update_state({}, {"rows": result.artifacts})
"""
    assert codes(body) == [(3, "TW401"), (5, "TW401")]


def test_a_name_alone_types_nothing() -> None:
    body = """\
def f(result: ToolResult, history, graph) -> None:
    history.add_message(result.artifacts)
    graph.update_state({}, {"rows": result.artifacts})
    store = object()
    store.put(("ns",), "key", result.artifacts)
"""
    assert codes(body) == []


def test_a_rebound_name_loses_its_type() -> None:
    body = """\
def f(history: BaseChatMessageHistory, result: ToolResult, make) -> None:
    history = make()
    history.add_message(result.artifacts)
"""
    assert codes(body) == []


def test_a_local_subclass_and_a_class_attribute_are_typed() -> None:
    body = """\
class Mine(BaseChatMessageHistory):
    pass


class Holder:
    history: BaseChatMessageHistory

    def run(self, result: ToolResult) -> None:
        self.history.add_message(result.artifacts)


def f(result: ToolResult) -> None:
    Mine().add_message(result.artifacts)
    mine = Mine()
    mine.add_message(result.artifacts)
"""
    assert codes(body) == [(9, "TW401"), (13, "TW401"), (15, "TW401")]
