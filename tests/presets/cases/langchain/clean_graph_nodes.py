"""LangGraph nodes that put the content (and the error flag) into the graph state; a
function of the same shape that is not a node returns what it likes to its caller."""
# layers: syntax
# (mypy has no hook on a function's return value: node returns are the syntax layer's)

from functools import partial
from typing import Any, TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import Command

from toolwire import ToolResult
from toolwire.result import ToolArtifact


class State(TypedDict):
    question: str
    answer: str
    failed: bool


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def orders(state: State) -> dict[str, Any]:
    result = lookup(state["question"])
    return {"answer": result.content, "failed": result.is_error}


def audit(state: State) -> dict[str, Any]:
    return {"answer": lookup(state["question"]).artifacts}  # not a node: for the caller


def keep(key: str) -> Command[str]:
    return Command(update={"answer": lookup(key)})  # not a node: for the caller


pick = partial(audit)
rows = list(map(lambda state: {"answer": lookup(state["question"])}, []))  # not a node


def routed(state: State) -> Command[str]:
    found = lookup(state["question"])
    return Command(update={"answer": found.content}, goto="scoped")


def scoped(state: State, table: str) -> dict[str, Any]:
    return {"answer": lookup(table).content}


def build() -> object:
    builder = StateGraph(State)
    builder.add_node("routed", routed)
    builder.add_node("scoped", partial(scoped, table="orders"))
    builder.add_node("inline", lambda state: {"answer": lookup(state["question"]).content})
    builder.add_node("orders", orders)
    builder.add_edge(START, "orders")
    return builder.compile()
