"""fastmcp tools (`@mcp.tool`, `mcp.add_tool(fn)`, a class alias) that send what should stay."""
# layers: syntax

import json

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
def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).artifacts  # expect: TW302


def order_rows(key: str) -> list[object]:
    """The customer's orders, as rows."""
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302


mcp.add_tool(order_rows)


@mcp.tool()
def raw(key: str) -> FastResult:
    found = [{"id": key}]
    text = TextContent(type="text", text=json.dumps(found))  # expect: TW302
    return FastResult(content=[text], meta={"rows": found})
