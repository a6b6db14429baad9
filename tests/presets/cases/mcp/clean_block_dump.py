"""A host hands the model a block's text, not the serialised block."""

from mcp import ClientSession
from mcp.types import CallToolResult, TextContent


async def tool_text(session: ClientSession, name: str) -> str:
    result = await session.call_tool(name, {})
    block = result.content[0]
    return block.text if isinstance(block, TextContent) else ""


def block_text(block: TextContent) -> str:
    return block.text


def error_flag(result: CallToolResult) -> str:
    return str(result.isError)
