"""An MCP host hands the model a serialised content block: its `_meta` goes along.

The syntax layer does not type the items of `CallToolResult.content` (a list of blocks of
several types, `content` being the wire field): only mypy sees `content[0]` as a block.
"""
# layers: mypy

from mcp import ClientSession


async def tool_text(session: ClientSession, name: str) -> str:
    result = await session.call_tool(name, {})
    return result.content[0].model_dump_json()  # expect: TW203
