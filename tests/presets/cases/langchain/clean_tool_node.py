"""A tool invoked with plain arguments returns its output, not a ToolMessage: making text
of it is the idiom."""

from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import BaseTool


def ask(tool: BaseTool, question: str) -> HumanMessage:
    found = tool.invoke({"query": question})
    return HumanMessage(f"Search said: {found}")


def run(tool: BaseTool, text: str, call_id: str) -> ToolMessage:
    output = tool.invoke(text)
    return ToolMessage(content=str(output), tool_call_id=call_id)


async def arun(tool: BaseTool, text: str, call_id: str) -> ToolMessage:
    output = await tool.ainvoke({"type": "search", "query": text})
    return ToolMessage(content=str(output), tool_call_id=call_id)
