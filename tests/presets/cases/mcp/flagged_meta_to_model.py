"""`_meta` stays with the host, whatever the SDK version calls the other fields."""

import json

from mcp import ClientSession
from mcp.types import TextContent


async def for_the_model(session: ClientSession) -> TextContent:
    result = await session.call_tool("lookup", {"city": "Oslo"})
    return TextContent(type="text", text=json.dumps(result.meta))  # expect: TW302
