"""pydantic-ai tools whose model-facing value carries what should stay in the run."""
# layers: syntax

import json

from pydantic_ai import Agent, ToolReturn

from toolwire import ToolResult
from toolwire.result import ToolArtifact

agent = Agent("test")


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def fetch(key: str) -> list[dict[str, str]]:
    return [{"id": key, "items": "2 chairs"}]


@agent.tool_plain
def orders(key: str) -> object:
    """The customer's orders."""
    return lookup(key).artifacts  # expect: TW302


@agent.tool_plain
def order_return(key: str) -> ToolReturn:
    """The customer's orders."""
    result = lookup(key)
    return ToolReturn(return_value=result)  # expect: TW301


@agent.tool_plain
def order_records(key: str) -> ToolReturn:
    """The customer's orders, with the records for the application."""
    rows = fetch(key)
    return ToolReturn(return_value=json.dumps(rows), metadata=rows)  # expect: TW302
