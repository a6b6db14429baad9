# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""ADK function tools: what they return is the function response the model reads."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, LongRunningFunctionTool

from toolwire import ToolArtifact, ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station", ToolArtifact.text("raw", "rows"))


def stations(city: str) -> dict[str, str]:
    """Stations of a city."""
    return {"result": str(lookup(city))}  # expect: TW201


async def export(city: str) -> dict[str, object]:
    """Start an export."""
    result = lookup(city)
    return {"result": result.content, "raw": result.artifacts}  # expect: TW302


def listed(city: str) -> str:
    """Listed in an agent."""
    return repr(lookup(city))  # expect: TW201


agent = LlmAgent(name="a", model="m", tools=[listed, FunctionTool(func=stations)])
slow = LongRunningFunctionTool(export)
