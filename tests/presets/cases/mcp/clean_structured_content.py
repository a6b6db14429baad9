"""A host may give the model `structuredContent` (the MCP specification allows it): it is
wire data, read by its 1.x name or its mcp 2.x name `structured_content`, and so are
`isError` / `is_error`."""

import json

from mcp import ClientSession
from mcp.types import TextContent


async def for_the_model(session: ClientSession) -> list[TextContent]:
    result = await session.call_tool("lookup", {"city": "Oslo"})
    status = "failed" if result.isError else "ok"
    return [
        TextContent(type="text", text=json.dumps(result.structuredContent)),
        TextContent(type="text", text=status),
    ]


async def for_the_model_2x(session: ClientSession) -> list[TextContent]:
    result = await session.call_tool("lookup", {"city": "Oslo"})
    status = "failed" if result.is_error else "ok"  # type: ignore[attr-defined]
    return [
        TextContent(type="text", text=json.dumps(result.structured_content)),  # type: ignore[attr-defined]
        TextContent(type="text", text=status),
    ]
