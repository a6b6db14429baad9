"""CrewAI tools whose text for the agent carries the artifacts."""
# layers: syntax

from crewai import Agent, Task
from crewai.tools import BaseTool, tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


class Orders(BaseTool):
    name: str = "orders"
    description: str = "The customer's orders."

    def _run(self, key: str) -> str:
        result = lookup(key)
        return f"{result.content}\n{result.artifacts}"  # expect: TW302


@tool("order rows")
def order_rows(key: str) -> object:
    """The customer's orders, as rows."""
    return [artifact.data for artifact in lookup(key).artifacts]  # expect: TW302


def review(analyst: Agent, key: str) -> Task:
    result = lookup(key)
    return Task(
        description=f"Review these orders: {result.artifacts}",  # expect: TW302
        expected_output="A short review.",
        agent=analyst,
    )


def analyst(key: str) -> Agent:
    result = lookup(key)
    return Agent(
        role="analyst",
        goal="Review orders.",
        backstory=f"You have seen {result.artifacts}",  # expect: TW302
    )
