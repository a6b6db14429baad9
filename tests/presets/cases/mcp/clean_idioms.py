"""Idiomatic MCP: the host reads the text blocks; server tools return text."""

from mcp import ClientSession
from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("weather")


async def process_llm_response(session: ClientSession, tool: str, arguments: dict[str, object]) -> str:
    result = await session.call_tool(tool, arguments)
    text = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
    if result.isError:
        return f"Tool {tool} failed: {text}"
    return f"Tool execution result: {text}"


def first_text(result: CallToolResult) -> str:
    block = result.content[0]
    return block.text if isinstance(block, TextContent) else ""


@mcp.tool()
def forecast(city: str) -> str:
    """The forecast for a city."""
    return f"Sunny in {city}"


@mcp.tool()
def greeting(name: str) -> TextContent:
    """A greeting, as a text block."""
    return TextContent(type="text", text=f"hello {name}")
