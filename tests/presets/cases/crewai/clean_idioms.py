"""Idiomatic CrewAI: tools return text; tasks are described in text."""

from crewai import Agent, Task
from crewai.tools import BaseTool, tool

from toolwire import ToolResult
from toolwire.adapters.crewai import ResultTool


class Forecast(BaseTool):
    name: str = "forecast"
    description: str = "The forecast for a city."

    def _run(self, city: str) -> str:
        return f"Sunny in {city}"


@tool("greeting")
def greeting(name: str) -> str:
    """A greeting."""
    return f"hello {name}"


class Balance(ResultTool):
    name: str = "balance"
    description: str = "An account's balance."

    def _run(self, account: str) -> ToolResult:
        return ToolResult.text(f"{account}: positive")


def review(analyst: Agent, topic: str, result: ToolResult) -> Task:
    return Task(
        description=f"Review {topic}: {result.content}",
        expected_output="A short review.",
        agent=analyst,
    )
