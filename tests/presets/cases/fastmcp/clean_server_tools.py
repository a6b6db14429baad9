"""fastmcp tools of the same shape as flagged_server_tools: the model reads the text."""
# layers: syntax

from fastmcp import FastMCP
from fastmcp.tools import ToolResult as FastResult
from mcp.types import TextContent

from toolwire import ToolResult
from toolwire.result import ToolArtifact

ServerFactory = FastMCP
mcp = ServerFactory("orders")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@mcp.tool
def orders(key: str) -> str:
    """The customer's orders."""
    return lookup(key).content


def order_count(key: str) -> int:
    """How many orders the customer has."""
    return len(lookup(key).artifacts)


mcp.add_tool(order_count)


@mcp.tool()
def raw(key: str) -> FastResult:
    found = [{"id": key}]
    text = TextContent(type="text", text=f"{len(found)} rows")
    return FastResult(content=[text], meta={"rows": found})


def rows(key: str) -> list[object]:
    """Not a tool: the run keeps the rows."""
    return [artifact.data for artifact in lookup(key).artifacts]
