"""Idiomatic pydantic-ai: text to the model, records in `metadata`."""

from pydantic_ai import Agent, RunContext, ToolReturn

from toolwire import ToolResult
from toolwire.adapters.pydantic_ai import result_tool

agent = Agent("test", instructions="You are terse.")


def fetch(key: str) -> list[dict[str, str]]:
    return [{"id": key, "items": "2 chairs"}]


@agent.tool_plain
def forecast(city: str) -> str:
    """The forecast for a city."""
    return f"Sunny in {city}"


@agent.tool
def orders(ctx: RunContext[None], key: str) -> ToolReturn:
    """The customer's orders."""
    rows = fetch(key)
    return ToolReturn(return_value=f"{len(rows)} orders", metadata={"rows": rows})


@agent.tool_plain
@result_tool
def balance(account: str) -> ToolResult:
    """An account's balance."""
    return ToolResult.text(f"{account}: positive")


async def ask(question: str) -> str:
    run = await agent.run(question)
    return run.output
