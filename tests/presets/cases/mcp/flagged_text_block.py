"""A text block for the model made of a result's artifacts."""

from mcp.types import TextContent

from toolwire import ToolResult


def order_block(result: ToolResult) -> TextContent:
    return TextContent(type="text", text=str(result.artifacts))  # expect: TW302
