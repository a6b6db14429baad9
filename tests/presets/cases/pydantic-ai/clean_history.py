"""Saving a run's history, as pydantic-ai documents it."""

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessagesTypeAdapter

agent = Agent("test")


async def save(question: str) -> bytes:
    run = await agent.run(question)
    return ModelMessagesTypeAdapter.dump_json(run.all_messages())
