# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""ADK function tools that send the content only; the artifacts stay in the run."""

from google.adk.agents import LlmAgent
from google.adk.tools import FunctionTool, LongRunningFunctionTool

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.google_adk import result_tool


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station", ToolArtifact.text("raw", "rows"))


def stations(city: str) -> dict[str, str]:
    """Stations of a city."""
    return {"result": lookup(city).content}


async def export(city: str) -> dict[str, object]:
    """Start an export."""
    result = lookup(city)
    return {"result": result.content, "count": len(result.artifacts)}


@result_tool
def listed(city: str) -> ToolResult:
    """Listed in an agent: the adapter sends the content, the artifacts are saved."""
    return lookup(city)


agent = LlmAgent(name="a", model="m", tools=[listed, FunctionTool(func=stations)])
slow = LongRunningFunctionTool(export)
