"""A LangGraph node that calls a tool with a tool call and stringifies the ToolMessage.

`BaseTool.invoke` with a tool call returns a `ToolMessage`, whose `str()` includes its
`artifact`; the new `ToolMessage` then sends that to the model.
"""
# layers: syntax

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.tools import BaseTool


def call_tool(tool: BaseTool, call: ToolCall) -> ToolMessage:
    result = tool.invoke(call)
    return ToolMessage(content=str(result), tool_call_id=call["id"])  # expect: TW201, TW301


async def acall_tool(tool: BaseTool, call: ToolCall) -> ToolMessage:
    result = await tool.ainvoke(call)
    return ToolMessage(f"{result}", tool_call_id=call["id"])  # expect: TW202, TW301


def call_literal(tool: BaseTool, query: str) -> ToolMessage:
    call = ToolCall(name="search", args={"query": query}, id="c1")
    result = tool.invoke(call)
    return ToolMessage(content=str(result), tool_call_id="c1")  # expect: TW201, TW301


def call_dict(tool: BaseTool, query: str) -> ToolMessage:
    result = tool.invoke({"type": "tool_call", "name": "search", "args": {"query": query}, "id": "c1"})
    return ToolMessage(content=f"{result}", tool_call_id="c1")  # expect: TW202, TW301
