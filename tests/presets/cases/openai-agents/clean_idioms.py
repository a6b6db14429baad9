"""Idiomatic Agents SDK: tools return text, runs take text."""

from agents import Agent, RunResult, Runner, ToolCallOutputItem, ToolOutputText, function_tool

from toolwire import ToolResult
from toolwire.adapters.openai_agents import result_tool


@function_tool
def forecast(city: str) -> str:
    """The forecast for a city."""
    return f"Sunny in {city}"


@function_tool
def greeting(name: str) -> ToolOutputText:
    """A greeting."""
    return ToolOutputText(text=f"hello {name}")


@result_tool
def balance(account: str) -> ToolResult:
    """An account's balance."""
    return ToolResult.text(f"{account}: positive")


agent = Agent(name="assistant", instructions="You are terse.", tools=[forecast, greeting, balance])


async def ask(question: str) -> RunResult:
    return await Runner.run(agent, question)


async def follow_up(item: ToolCallOutputItem) -> RunResult:
    return await Runner.run(agent, f"Earlier the tool returned {item.output}")
