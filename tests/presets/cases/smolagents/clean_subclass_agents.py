"""The same subclass agents given text: the result's content, or a task of other origin."""
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
    return agent.run(f"Check these orders: {result.content}")


def again(key: str, question: str) -> object:
    agent = ToolCallingAgent(tools=[], model=InferenceClientModel())
    artifacts = lookup(key).artifacts
    print(len(artifacts), "artifacts kept for the run")
    return agent.run(task=question)
