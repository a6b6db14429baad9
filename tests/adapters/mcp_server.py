"""A FastMCP server over stdio, for the raw JSON-RPC wire test in test_mcp.py."""

from __future__ import annotations

try:
    from mcp.server.fastmcp import FastMCP
except ModuleNotFoundError:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as FastMCP  # type: ignore[no-redef]

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.mcp import result_tool

MARKER = "ARTIFACT-ONLY-7f3a"

server = FastMCP("toolwire-stdio")


@server.tool()
@result_tool
def lookup(city: str) -> ToolResult:
    """Look up a city."""
    return ToolResult.text(
        f"{city}: 3 stations",
        ToolArtifact.table("stations", ["id", "note"], [["s1", MARKER]]),
    )


@server.tool()
@result_tool
def broken(city: str) -> ToolResult:
    """Always fails."""
    return ToolResult.error(f"no data for {city}")


if __name__ == "__main__":
    server.run("stdio")
