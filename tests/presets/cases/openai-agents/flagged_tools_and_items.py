"""OpenAI Agents SDK: a function tool that returns the artifacts, and a run item's
run-only `custom_data` put back into the next run's input.
"""
# layers: syntax

from agents import Agent, RunResult, Runner, ToolCallOutputItem, function_tool

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@function_tool
def orders(key: str) -> object:
    """The customer's orders."""
    result = lookup(key)
    return result.artifacts  # expect: TW302


@function_tool
def whole_order(key: str) -> object:
    """The customer's orders."""
    return lookup(key)  # expect: TW201


async def follow_up(agent: Agent, item: ToolCallOutputItem) -> RunResult:
    return await Runner.run(agent, f"Earlier the tool returned {item}")  # expect: TW202


async def replay(agent: Agent, item: ToolCallOutputItem) -> RunResult:
    return await Runner.run(agent, input=str(item.custom_data))  # expect: TW302
