"""A pydantic-ai tool function that returns the artifacts."""
# layers: syntax

from pydantic_ai import Agent

from toolwire import ToolResult
from toolwire.result import ToolArtifact

agent = Agent("test")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@agent.tool_plain
def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).artifacts  # expect: TW302
