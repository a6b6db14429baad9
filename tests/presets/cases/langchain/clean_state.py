"""State holds text and ids, never artifacts."""

from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from toolwire import ToolResult


def remember(graph: CompiledStateGraph, config: RunnableConfig, result: ToolResult) -> None:
    graph.update_state(config, {"summary": result.content, "failed": result.is_error})


def note(history: BaseChatMessageHistory, question: str, answer: str) -> None:
    history.add_message(HumanMessage(question))
    history.add_messages([AIMessage(answer)])
