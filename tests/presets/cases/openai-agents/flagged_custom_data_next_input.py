"""The Agents SDK keeps `ToolCallOutputItem.custom_data` for the run; pasting it into the
next run's input sends it to the model."""

from agents import Agent, Runner, ToolCallOutputItem


async def again(agent: Agent, item: ToolCallOutputItem) -> object:
    return await Runner.run(agent, input=f"Last call: {item.custom_data}")  # expect: TW302


def again_sync(agent: Agent, item: ToolCallOutputItem) -> object:
    return Runner.run_sync(agent, str(item.custom_data))  # expect: TW302
