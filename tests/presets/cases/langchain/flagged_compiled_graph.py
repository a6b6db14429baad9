"""`builder.compile(...)` is a CompiledStateGraph: its `update_state` writes checkpointed
state, with no annotation on the compiled graph."""

from typing import TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import StateGraph

from toolwire import ToolResult


class State(TypedDict):
    answer: object


def lookup(key: str) -> ToolResult:
    return ToolResult.text(f"1 order for {key}")


def answer(state: State) -> State:
    return {"answer": "none"}


builder = StateGraph(State)
builder.add_node(answer)
app = builder.compile(checkpointer=InMemorySaver())


def remember(config: RunnableConfig, key: str) -> None:
    result = lookup(key)
    app.update_state(config, {"answer": result.artifacts})  # expect: TW401


async def remember_later(config: RunnableConfig, key: str) -> None:
    await app.aupdate_state(config, {"answer": lookup(key)})  # expect: TW401
