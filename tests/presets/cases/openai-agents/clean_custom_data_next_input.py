"""The next run's input gets the tool's output; `custom_data` only steers the code."""

from agents import Agent, Runner, ToolCallOutputItem


async def again(agent: Agent, item: ToolCallOutputItem) -> object:
    return await Runner.run(agent, input=f"Last call: {item.output}")


def again_sync(agent: Agent, item: ToolCallOutputItem, question: str) -> object:
    data = item.custom_data or {}
    if data.get("toolwire", {}).get("is_error"):
        return Runner.run_sync(agent, f"The tool failed; answer without it: {question}")
    return Runner.run_sync(agent, question)
