"""LangGraph nodes return dicts that are merged into the checkpointed graph state: a
ToolResult or its artifacts there are stored and resumed with the run.
"""
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
    answer: object


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def orders(state: State) -> dict[str, Any]:
    result = lookup(state["question"])
    return {"answer": result.artifacts}  # expect: TW401


async def kept(state: State) -> dict[str, Any]:
    return {"answer": lookup(state["question"])}  # expect: TW401


def rows(state: State) -> dict[str, Any]:
    found = lookup(state["question"])
    return {"answer": [a.data for a in found.artifacts]}  # expect: TW401


def routed(state: State) -> Command[str]:
    found = lookup(state["question"])
    return Command(update={"answer": found}, goto="rows")  # expect: TW401


def scoped(state: State, table: str) -> dict[str, Any]:
    return {"answer": lookup(table)}  # expect: TW401


def text(state: State) -> dict[str, Any]:
    # text made from a result: TW201 only, it holds no artifact (rules/TW401.md)
    return {"answer": str(lookup(state["question"]))}  # expect: TW201


def build() -> object:
    builder = StateGraph(State)
    builder.add_node("routed", routed)
    builder.add_node("text", text)
    builder.add_node("scoped", partial(scoped, table="orders"))
    builder.add_node("inline", lambda state: {"answer": lookup(state["question"])})  # expect: TW401
    builder.add_node("orders", orders)
    builder.add_node(kept)
    builder.add_node(node="rows", action=rows)
    builder.add_edge(START, "orders")
    return builder.compile()
