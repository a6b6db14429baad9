"""A host puts the whole fastmcp `CallToolResult` (with `meta` and `data`) in the prompt."""

from fastmcp import Client


async def tool_text(client: Client, tool: str, arguments: dict) -> str:
    result = await client.call_tool(tool, arguments)
    return f"Tool result: {result}"  # expect: TW202
