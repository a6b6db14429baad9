"""A host may give the model the structured content of a fastmcp `CallToolResult` (the
MCP specification allows it), as with the mcp preset; only `meta` stays with the host."""

import json

from fastmcp import Client


async def tool_text(client: Client, tool: str, arguments: dict) -> str:
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    status = "failed" if result.is_error else "ok"
    return f"Tool {status}: {json.dumps(result.structured_content)}"
