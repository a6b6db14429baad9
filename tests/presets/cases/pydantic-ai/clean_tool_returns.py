"""A pydantic-ai tool function of the same shape as flagged_tool_returns: it returns the text."""

from pydantic_ai import Agent

from toolwire import ToolResult
from toolwire.result import ToolArtifact

agent = Agent("test")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@agent.tool_plain
def orders(key: str) -> str:
    """The customer's orders."""
    return lookup(key).content


def artifacts(key: str) -> object:
    """Not a tool: the run keeps the artifacts."""
    return lookup(key).artifacts
