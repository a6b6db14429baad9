"""A function handed to `FunctionTool.from_defaults` returns the artifacts."""
# layers: syntax

from llama_index.core.tools import FunctionTool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).artifacts  # expect: TW302


orders_tool = FunctionTool.from_defaults(fn=orders)
