"""fastmcp's standalone `@tool` of the same shape as flagged_standalone_tool: the text."""
# layers: syntax

from fastmcp.tools import tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@tool
def orders(key: str) -> str:
    """The customer's orders."""
    return lookup(key).content


@tool("order_rows")
def rows(key: str) -> int:
    return len(lookup(key).artifacts)
