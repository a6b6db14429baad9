"""An MCP host hands the model a serialised content block: its `_meta` goes along."""
# xfail syntax: no serialiser methods (`.model_dump_json()`), and the blocks of `CallToolResult.content` are not results
# xfail mypy: the model has no serialiser methods (`.model_dump_json()`) yet

from mcp import ClientSession
from mcp.types import CallToolResult, TextContent


async def tool_text(session: ClientSession, name: str) -> str:
    result = await session.call_tool(name, {})
    return result.content[0].model_dump_json()  # expect: TW203


def block_text(block: TextContent) -> str:
    return block.model_dump_json(by_alias=True)  # expect: TW203


def whole(result: CallToolResult) -> dict[str, object]:
    return result.model_dump()  # expect: TW203
