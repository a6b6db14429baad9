"""`@tool` functions and a BaseTool that return what should stay in the run."""
# layers: syntax

from langchain_core.tools import BaseTool, tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@tool
def orders(key: str) -> object:
    """The customer's orders."""
    result = lookup(key)
    return result.artifacts  # expect: TW302


@tool
def order_rows(key: str) -> object:
    """The customer's orders, as rows."""
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302


class Orders(BaseTool):
    name: str = "orders"
    description: str = "The customer's orders."

    def _run(self, key: str) -> object:
        return lookup(key)  # expect: TW201
