"""A function handed to `FunctionTool.from_defaults`, of the same shape as
flagged_tool_returns: it returns the text."""

from llama_index.core.tools import FunctionTool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).content


def artifacts(key: str) -> object:
    """Not handed to a factory: the run keeps the artifacts."""
    return lookup(key).artifacts


orders_tool = FunctionTool.from_defaults(fn=orders)
