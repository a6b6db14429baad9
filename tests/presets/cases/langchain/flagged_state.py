"""Artifacts written into resumable state: a LangGraph state update and a chat history."""

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from toolwire import ToolResult


def remember(graph: CompiledStateGraph, config: RunnableConfig, result: ToolResult) -> None:
    graph.update_state(config, {"records": result.artifacts})  # expect: TW401


def note(history: BaseChatMessageHistory, result: ToolResult) -> None:
    history.add_message(HumanMessage(str([a.data for a in result.artifacts])))  # expect: TW302, TW401
