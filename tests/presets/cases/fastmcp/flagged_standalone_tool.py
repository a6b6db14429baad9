"""fastmcp's standalone `@tool` (registered elsewhere) sending what should stay."""
# layers: syntax

from fastmcp.tools import tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@tool
def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).artifacts  # expect: TW302


@tool("order_rows")
def rows(key: str) -> list[object]:
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302
