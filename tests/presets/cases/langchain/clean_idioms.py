"""Idiomatic LangChain: messages built from text, tools that return text and artifacts."""

from typing import Literal

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.tools import BaseTool, tool

from toolwire import ToolResult
from toolwire.adapters.langchain import ToolResultTool, result_tool
from toolwire.result import ToolArtifact


def prompt(question: str, answer: str) -> list[BaseMessage]:
    return [
        SystemMessage("You are terse."),
        HumanMessage("hello"),
        HumanMessage(content=question),
        AIMessage(answer),
    ]


def reply(call_id: str, result: ToolResult) -> ToolMessage:
    return ToolMessage(content=result.content, artifact=result.artifacts, tool_call_id=call_id)


def call_tool(tool: BaseTool, call: ToolCall) -> list[BaseMessage]:
    message = tool.invoke(call)
    text = tool.invoke(call["args"])
    return [
        message,
        ToolMessage(content=message.content, artifact=message.artifact, tool_call_id=call["id"]),
        HumanMessage(f"The tool said: {message.text}"),
        ToolMessage(content=str(text), tool_call_id=call["id"]),
    ]


def search_api(query: str) -> list[dict[str, str]]:
    return [{"title": query, "link": "https://example.com"}]


@tool(response_format="content_and_artifact")
def search(query: str) -> tuple[str, list[dict[str, str]]]:
    """Search the web."""
    hits = search_api(query)
    return f"{len(hits)} hits for {query}", hits


@tool
def echo(text: str) -> str:
    """Say it back."""
    return text


class Lookup(BaseTool):
    name: str = "lookup"
    description: str = "Look a key up."
    response_format: Literal["content_and_artifact"] = "content_and_artifact"

    def _run(self, key: str) -> tuple[str, list[dict[str, str]]]:
        rows = search_api(key)
        return f"{len(rows)} rows", rows


class Orders(ToolResultTool):
    name: str = "orders"
    description: str = "The customer's orders."

    def _run(self, key: str) -> ToolResult:
        table = ToolArtifact.table("orders", ["id"], [[key]])
        return ToolResult.text("1 order", table)


@result_tool
def balance(account: str) -> ToolResult:
    """An account's balance."""
    return ToolResult.text(f"{account}: positive")
