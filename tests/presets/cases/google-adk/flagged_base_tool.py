# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""A `BaseTool` subclass's `run_async`: what it returns is the function response. (TW101
on one annotated `-> str`, which these cases ignore: tests/adapters/test_google_adk_migrate.py.)"""

from typing import Any

from google.adk.tools import BaseTool, ToolContext

from toolwire import ToolArtifact, ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station", ToolArtifact.text("raw", "rows"))


class Dumped(BaseTool):
    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        result = lookup(args["city"])
        return {"result": result.content, "raw": result.artifacts}  # expect: TW302


class Texted(BaseTool):
    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        return {"result": str(lookup(args["city"]))}  # expect: TW201
