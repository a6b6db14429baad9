"""`@mcp.tool()` functions of the same shape as flagged_server_tools: they return the text."""

from mcp.server.fastmcp import FastMCP

from toolwire import ToolResult
from toolwire.result import ToolArtifact

mcp = FastMCP("orders")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@mcp.tool()
def orders(key: str) -> str:
    """The customer's orders."""
    result = lookup(key)
    return result.content


@mcp.tool()
def order_count(key: str) -> int:
    """How many orders the customer has."""
    return len(lookup(key).artifacts)


def rows(key: str) -> list[object]:
    """Not a tool: the run keeps the rows."""
    return [artifact.data for artifact in lookup(key).artifacts]
