"""Run by tests/guard/test_frameworks.py under `pytest --toolwire-guard`.

Each framework through its real path with its own test model: `test_clean_*` goes through
the toolwire adapter and must pass; `test_leak_*` pastes artifact data into what the
model is sent (tool content, a follow-up prompt, a system message) and must fail.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from toolwire import ToolArtifact, ToolResult

SECRET = "ARTIFACT-ONLY-guard-5e1f"
CONTENT = "3 hotels in Oslo; the cheapest is 90 EUR"
made: list[ToolResult] = []


def hotels() -> ToolResult:
    result = ToolResult.text(
        CONTENT, ToolArtifact.table("hotels", ["name", "note"], [["Grand", SECRET]])
    )
    made.append(result)
    return result


def leaked() -> str:
    return json.dumps(made[-1].artifacts[0].data)


# --- LangChain: a fake chat model ----------------------------------------------------------


def _langchain(system: str = "") -> None:
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    from toolwire.adapters.langchain import result_tool

    @result_tool
    def find_hotels(city: str) -> ToolResult:
        """Find hotels in a city."""
        return hotels()

    call = {"name": "find_hotels", "args": {"city": "Oslo"}, "id": "c1", "type": "tool_call"}
    message = find_hotels.invoke(call)
    model = FakeMessagesListChatModel(responses=[AIMessage("done")])
    prompt = [HumanMessage("hotels?"), AIMessage("", tool_calls=[call]), message]
    if system:
        prompt.insert(0, SystemMessage(system))
    model.invoke(prompt)


def test_clean_langchain() -> None:
    _langchain()


def test_leak_langchain_system_message() -> None:
    made.clear()
    _langchain(system="")
    _langchain(system=f"Known hotels: {leaked()}")


# --- pydantic-ai: FunctionModel and TestModel ----------------------------------------------


def _pydantic_ai(follow_up: bool) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel
    from pydantic_ai.models.test import TestModel

    from toolwire.adapters.pydantic_ai import result_tool

    def script(messages: list[Any], info: Any) -> ModelResponse:
        if len(messages) == 1:
            return ModelResponse(
                parts=[ToolCallPart("find_hotels", {"city": "Oslo"}, tool_call_id="c1")]
            )
        return ModelResponse(parts=[TextPart("done")])

    def find_hotels(city: str) -> ToolResult:
        """Find hotels in a city."""
        return hotels()

    agent: Agent[None, str] = Agent(FunctionModel(script))
    agent.tool_plain(result_tool(find_hotels))
    run = agent.run_sync("hotels?")
    if follow_up:
        Agent(TestModel()).run_sync(f"and these? {leaked()}", message_history=run.all_messages())


def test_clean_pydantic_ai() -> None:
    _pydantic_ai(follow_up=False)


def test_leak_pydantic_ai_follow_up_prompt() -> None:
    _pydantic_ai(follow_up=True)


# --- OpenAI Agents SDK: a scripted Model ---------------------------------------------------


def _openai_agents(paste: bool) -> None:
    from agents import Agent, RunConfig, Runner, function_tool
    from oa_scripted import ScriptedModel, final, tool_call

    from toolwire.adapters.openai_agents import result_tool

    if paste:

        @function_tool
        def find_hotels(city: str) -> str:
            """Find hotels in a city."""
            result = hotels()
            return f"{result.content} {result.artifacts[0].data}"

    else:

        @result_tool
        def find_hotels(city: str) -> ToolResult:
            """Find hotels in a city."""
            return hotels()

    model = ScriptedModel(tool_call("find_hotels", {"city": "Oslo"}), final("done"))
    agent = Agent(name="a", model=model, tools=[find_hotels])
    asyncio.run(Runner.run(agent, "hotels?", run_config=RunConfig(tracing_disabled=True)))


def test_clean_openai_agents() -> None:
    _openai_agents(paste=False)


def test_leak_openai_agents_tool_content() -> None:
    _openai_agents(paste=True)


# --- smolagents: a scripted Model ----------------------------------------------------------


def _smolagents(paste: bool) -> None:
    from sa_scripted import ScriptedModel, call
    from smolagents import ToolCallingAgent
    from smolagents import tool as smol_tool

    from toolwire.adapters.smolagents import tool

    if paste:

        @smol_tool
        def find_hotels(city: str) -> str:
            """Find hotels in a city.

            Args:
                city: The city.
            """
            result = hotels()
            return result.content + " " + leaked()

    else:

        @tool
        def find_hotels(city: str) -> ToolResult:
            """Find hotels in a city.

            Args:
                city: The city.
            """
            return hotels()

    replies = [
        call(1, "find_hotels", {"city": "Oslo"}),
        call(2, "final_answer", {"answer": "done"}),
    ]
    agent = ToolCallingAgent(tools=[find_hotels], model=ScriptedModel(replies), verbosity_level=0)
    agent.run("hotels?")


def test_clean_smolagents() -> None:
    _smolagents(paste=False)


def test_leak_smolagents_tool_content() -> None:
    _smolagents(paste=True)


# --- CrewAI: a scripted LLM ----------------------------------------------------------------


def _crewai(paste: bool) -> None:
    from ca_scripted import ScriptedLLM, call, final
    from crewai import Agent, Task

    from toolwire.adapters.crewai import tool

    @tool("find_hotels")
    def find_hotels(city: str) -> ToolResult:
        """Find hotels in a city."""
        return hotels()

    replies = [call(True, 1, "find_hotels", {"city": "Oslo"}), final(True, "done")]
    llm = ScriptedLLM(model="scripted", replies=replies, native=True)
    backstory = f"You know these hotels: {leaked()}" if paste else "b"
    agent = Agent(role="support", goal="answer", backstory=backstory, llm=llm, tools=[find_hotels])
    agent.execute_task(Task(description="hotels?", expected_output="a sentence", agent=agent))


def test_clean_crewai() -> None:
    _crewai(paste=False)


def test_leak_crewai_system_message() -> None:
    made.clear()
    hotels()
    _crewai(paste=True)


# --- LlamaIndex: MockFunctionCallingLLM ----------------------------------------------------


def _llamaindex(paste: bool) -> None:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    from toolwire.adapters.llamaindex import ResultFunctionTool

    def script(messages: Any, **kwargs: Any) -> ChatMessage:
        if any(m.role == MessageRole.TOOL for m in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, content="done")
        block = ToolCallBlock(
            tool_call_id="c1", tool_name="find_hotels", tool_kwargs={"city": "Oslo"}
        )
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=[block])

    def find_hotels(city: str) -> ToolResult:
        """Find hotels in a city."""
        return hotels()

    async def run() -> None:
        agent = FunctionAgent(
            tools=[ResultFunctionTool.from_defaults(find_hotels)],
            llm=MockFunctionCallingLLM(response_generator=script),
        )
        await agent.run(user_msg="hotels?")
        if paste:
            await agent.run(user_msg=f"and these? {leaked()}")

    asyncio.run(run())


def test_clean_llamaindex() -> None:
    _llamaindex(paste=False)


def test_leak_llamaindex_follow_up_prompt() -> None:
    _llamaindex(paste=True)
