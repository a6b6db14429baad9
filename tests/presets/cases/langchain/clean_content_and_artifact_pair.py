"""Content-and-artifact tools: LangChain sends the first item and keeps the second in
`ToolMessage.artifact`, so returning the artifacts there is the idiom."""
# layers: syntax

from langchain_core.tools import BaseTool, tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@tool(response_format="content_and_artifact")
def orders(key: str) -> tuple[str, object]:
    """The customer's orders."""
    result = lookup(key)
    return result.content, result.artifacts


class Orders(BaseTool):
    name: str = "orders"
    description: str = "The customer's orders."
    response_format: str = "content_and_artifact"

    def _run(self, key: str) -> tuple[str, object]:
        result = lookup(key)
        return result.content, result.artifacts
