"""The host reads the text blocks of the fastmcp `CallToolResult`."""

from fastmcp import Client
from mcp.types import TextContent


async def tool_text(client: Client, tool: str, arguments: dict) -> str:
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    text = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
    return f"Tool failed: {text}" if result.is_error else f"Tool result: {text}"
