# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""`BaseTool` subclasses that send the content; `ResultTool`'s run_async returns the result."""

from typing import Any

from google.adk.tools import BaseTool, ToolContext

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.google_adk import ResultTool


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station", ToolArtifact.text("raw", "rows"))


class Stations(ResultTool):
    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> ToolResult:
        return lookup(args["city"])


class Counted(BaseTool):
    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        result = lookup(args["city"])
        return {"result": result.content, "artifacts": len(result.artifacts)}


class NotATool:
    async def run_async(self, *, args: dict[str, Any]) -> str:
        return str(args)
