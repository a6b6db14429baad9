"""A content block or a whole CallToolResult serialised as the model's text: `_meta` goes along."""

from mcp.types import CallToolResult, TextContent


def block_text(block: TextContent) -> str:
    return block.model_dump_json(by_alias=True)  # expect: TW203


def whole(result: CallToolResult) -> dict[str, object]:
    return result.model_dump()  # expect: TW203
