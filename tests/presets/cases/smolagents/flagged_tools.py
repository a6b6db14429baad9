"""smolagents: `forward` and `@tool` return the artifacts; a streamed ToolOutput's raw
`output` goes back to the model.
"""
# layers: syntax

from smolagents import ChatMessage, MessageRole, Tool, ToolOutput, tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


class Orders(Tool):
    name = "orders"
    description = "The customer's orders."
    inputs = {"key": {"type": "string", "description": "the customer"}}
    output_type = "string"

    def forward(self, key: str) -> object:
        return lookup(key).artifacts  # expect: TW302


@tool
def order_rows(key: str) -> object:
    """The customer's orders.

    Args:
        key: the customer
    """
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302


def echo(step: ToolOutput) -> ChatMessage:
    return ChatMessage(role=MessageRole.USER, content=f"The tool gave {step}")  # expect: TW202


def raw(step: ToolOutput) -> ChatMessage:
    return ChatMessage(role=MessageRole.USER, content=str(step.output))  # expect: TW302
