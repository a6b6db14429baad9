"""The same pair from tools that are not content-and-artifact, or with the artifacts in
the content's place: the framework sends them."""
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
    return result.content, result.artifacts  # expect: TW302


@tool(response_format="content_and_artifact")
def swapped(key: str) -> tuple[object, str]:
    """The customer's orders."""
    result = lookup(key)
    return result.artifacts, result.content  # expect: TW302


class Orders(BaseTool):
    name: str = "orders"
    description: str = "The customer's orders."
    response_format: str = "content"

    def _run(self, key: str) -> object:
        result = lookup(key)
        return result.content, result.artifacts  # expect: TW302
