"""Idiomatic smolagents: tools return text; the observation is the model's text."""

from smolagents import ChatMessage, MessageRole, Tool, ToolOutput, tool

from toolwire import ToolResult
from toolwire.adapters.smolagents import ResultTool


class Forecast(Tool):
    name = "forecast"
    description = "The forecast for a city."
    inputs = {"city": {"type": "string", "description": "the city"}}
    output_type = "string"

    def forward(self, city: str) -> str:
        return f"Sunny in {city}"


@tool
def greeting(name: str) -> str:
    """A greeting.

    Args:
        name: who to greet
    """
    return f"hello {name}"


class Balance(ResultTool):
    name = "balance"
    description = "An account's balance."
    inputs = {"account": {"type": "string", "description": "the account"}}
    output_type = "string"

    def forward(self, account: str) -> ToolResult:
        return ToolResult.text(f"{account}: positive")


def observe(step: ToolOutput) -> list[ChatMessage]:
    return [
        ChatMessage(role=MessageRole.SYSTEM, content="You are terse."),
        ChatMessage(role=MessageRole.USER, content=f"Observation: {step.observation}"),
    ]
