"""A sink declared on a base class (`MultiStepAgent.run`) is a sink on an instance of the
framework's subclasses: `CodeAgent` and `ToolCallingAgent`, annotated or built.
"""
# layers: syntax
# (smolagents ships no py.typed: to mypy its agents are Any)

from smolagents import CodeAgent, InferenceClientModel, ToolCallingAgent

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


def follow_up(agent: CodeAgent, key: str) -> object:
    result = lookup(key)
    return agent.run(f"Check these orders: {result.artifacts}")  # expect: TW302


def again(key: str) -> object:
    agent = ToolCallingAgent(tools=[], model=InferenceClientModel())
    return agent.run(task=str([a.data for a in lookup(key).artifacts]))  # expect: TW302
