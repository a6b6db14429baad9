"""`@mcp.tool()` functions that return what should stay in the run."""
# layers: syntax

from mcp.server.fastmcp import FastMCP

from toolwire import ToolResult
from toolwire.result import ToolArtifact

mcp = FastMCP("orders")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@mcp.tool()
def orders(key: str) -> object:
    """The customer's orders."""
    result = lookup(key)
    return result.artifacts  # expect: TW302


@mcp.tool()
def order_rows(key: str) -> list[object]:
    """The customer's orders, as rows."""
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302

