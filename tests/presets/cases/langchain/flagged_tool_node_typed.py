"""A LangGraph node whose ToolMessage in hand (annotated) is stringified into a new one."""

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.tools import BaseTool


def call_tool(tool: BaseTool, call: ToolCall) -> ToolMessage:
    result: ToolMessage = tool.invoke(call)
    return ToolMessage(content=str(result), tool_call_id=call["id"])  # expect: TW201, TW301


async def acall_tool(tool: BaseTool, call: ToolCall) -> ToolMessage:
    result: ToolMessage = await tool.ainvoke(call)
    return ToolMessage(f"{result}", tool_call_id=call["id"])  # expect: TW202, TW301
