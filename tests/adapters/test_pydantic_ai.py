"""toolwire.adapters.pydantic_ai through `Agent.run_sync`, with FunctionModel, TestModel and
the OpenAI chat model over a mock HTTP transport; no network."""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

import httpx
from framework_docs import assert_extra_installed, install_extras, python_blocks, run_page
from pydantic_ai import Agent, RunContext, ToolReturn
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.tools import ToolDefinition

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.pydantic_ai import ArtifactMetadata, result_tool, to_tool_return

MARKER = "ARTIFACT-ONLY-7f3a9c"
CONTENT = "3 hotels in Oslo; the cheapest is 90 EUR"
STUB = {"toolwire_run_only_artifacts": 1}


def _table() -> ToolArtifact:
    return ToolArtifact.table("hotels", ["name", "secret"], [["Grand", MARKER]])


def find_hotels(city: str, limit: int = 3) -> ToolResult:
    """Find hotels in a city.

    Args:
        city: The city to search.
        limit: How many hotels to list.
    """
    return ToolResult.text(CONTENT, _table())


def book_hotel(name: str) -> ToolResult:
    """Book a hotel by name."""
    return ToolResult.error(f"no hotel called {name}")


@dataclass
class Scripted:
    """A FunctionModel body: call one tool, then answer; keeps what each call was sent."""

    tool: str
    args: dict[str, Any]
    seen: list[list[ModelMessage]]
    tools: list[list[ToolDefinition]]

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        self.tools.append(info.function_tools)
        if len(self.seen) == 1:
            return ModelResponse(parts=[ToolCallPart(self.tool, self.args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])


def _scripted(tool: str, args: dict[str, Any]) -> Scripted:
    return Scripted(tool, args, [], [])


def _returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        part
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def _run(tool: Any, script: Scripted, **kwargs: Any) -> Any:
    agent: Agent[Any, str] = Agent(FunctionModel(script), **kwargs)
    agent.tool_plain(tool)
    return agent.run_sync("go")


def test_tool_definition_is_the_one_of_the_same_function_returning_str() -> None:
    def find_hotels(city: str, limit: int = 3) -> str:
        """Find hotels in a city.

        Args:
            city: The city to search.
            limit: How many hotels to list.
        """
        return ""

    plain, wrapped = _scripted("find_hotels", {"city": "Oslo"}), _scripted("x", {})
    _run(find_hotels, plain)
    _run(result_tool(globals()["find_hotels"]), wrapped)
    assert wrapped.tools[0] == plain.tools[0]
    assert plain.tools[0][0].name == "find_hotels"
    assert "limit" in json.dumps(plain.tools[0][0].parameters_json_schema)


def test_model_reads_exactly_the_content_and_artifacts_are_metadata() -> None:
    script = _scripted("find_hotels", {"city": "Oslo"})
    result = _run(result_tool(find_hotels), script)
    assert result.output == "done"
    [part] = _returns(script.seen[1])
    assert part.outcome == "success"
    assert part.content == CONTENT
    assert part.model_response_str() == CONTENT
    assert MARKER not in json.dumps(part.model_response_object())
    assert isinstance(part.metadata, ArtifactMetadata)
    assert part.metadata.artifacts == (_table(),)
    assert part.metadata.artifacts[0].data["rows"] == [["Grand", MARKER]]
    with pytest.raises(TypeError, match="no string form"):
        str(find_hotels("Oslo"))


def test_test_model_answers_from_the_content_alone() -> None:
    agent: Agent[None, str] = Agent(TestModel())
    agent.tool_plain(result_tool(find_hotels))
    result = agent.run_sync("go")
    assert json.loads(result.output) == {"find_hotels": CONTENT}
    assert MARKER not in result.output


def test_history_keeps_a_stub_and_the_live_run_keeps_the_artifacts() -> None:
    script = _scripted("find_hotels", {"city": "Oslo"})
    result = _run(result_tool(find_hotels), script)
    dumped = result.all_messages_json()
    assert dumped == ModelMessagesTypeAdapter.dump_json(result.all_messages())
    assert CONTENT.encode() in dumped
    assert MARKER.encode() not in dumped
    assert MARKER not in repr(ModelMessagesTypeAdapter.dump_python(result.all_messages()))
    assert MARKER.encode() not in pickle.dumps(result.all_messages())

    [live] = _returns(result.all_messages())
    assert isinstance(live.metadata, ArtifactMetadata)
    assert live.metadata.artifacts[0].data["rows"] == [["Grand", MARKER]]

    history = ModelMessagesTypeAdapter.validate_json(dumped)
    [loaded] = _returns(history)
    assert loaded.content == CONTENT
    assert loaded.metadata == STUB

    follow_up = _scripted("find_hotels", {"city": "Bergen"})
    agent: Agent[None, str] = Agent(FunctionModel(follow_up))
    agent.tool_plain(result_tool(find_hotels))
    agent.run_sync("again", message_history=history)
    assert [p.content for p in _returns(follow_up.seen[1])] == [CONTENT, CONTENT]


def test_a_result_without_artifacts_is_stored_as_the_str_was() -> None:
    def plain(city: str) -> str:
        """Look a city up."""
        return f"sunny in {city}"

    def migrated(city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"sunny in {city}")

    stored = []
    for tool in (plain, result_tool(migrated)):
        script = _scripted("lookup", {"city": "Oslo"})
        agent: Agent[None, str] = Agent(FunctionModel(script))
        agent.tool_plain(name="lookup")(tool)
        run = agent.run_sync("go")
        [part] = _returns(script.seen[1])
        assert (part.content, part.metadata) == ("sunny in Oslo", None)
        stored.append(json.loads(run.all_messages_json())[2]["parts"][0]["metadata"])
    assert stored == [None, None]


def test_an_error_result_is_a_failed_tool_return_with_the_content() -> None:
    script = _scripted("book_hotel", {"name": "Ritz"})
    result = _run(result_tool(book_hotel), script)
    assert result.output == "done"
    [part] = _returns(script.seen[1])
    assert part.outcome == "failed"
    assert part.content == "no hotel called Ritz"
    assert part.model_response_str(wrap_if_error=False) == "no hotel called Ritz"
    assert part.metadata is None
    assert part.retry is None


def test_async_context_tools_and_to_tool_return() -> None:
    script = _scripted("lookup", {"city": "Oslo"})
    agent: Agent[str, str] = Agent(FunctionModel(script), deps_type=str)

    @agent.tool
    @result_tool
    async def lookup(ctx: RunContext[str], city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"{city} for {ctx.deps}", _table())

    agent.run_sync("go", deps="u1")
    [part] = _returns(script.seen[1])
    assert part.content == "Oslo for u1"
    assert isinstance(part.metadata, ArtifactMetadata)
    assert "ctx" not in json.dumps(script.tools[0][0].parameters_json_schema)

    plain_script = _scripted("count", {})
    plain: Agent[None, str] = Agent(FunctionModel(plain_script))

    @plain.tool_plain
    def count() -> ToolReturn:
        """Count hotels."""
        return to_tool_return(ToolResult.text("2 hotels", _table()))

    plain.run_sync("go")
    [counted] = _returns(plain_script.seen[1])
    assert counted.content == "2 hotels"
    assert isinstance(counted.metadata, ArtifactMetadata)


def test_a_tool_that_returns_something_else_is_reported_not_stringified() -> None:
    def sloppy(city: str) -> ToolResult:
        """Returns a dict by mistake."""
        return {"rows": [MARKER]}  # type: ignore[return-value]

    with pytest.raises(TypeError, match="sloppy returned dict, not a ToolResult"):
        _run(result_tool(sloppy), _scripted("sloppy", {"city": "Oslo"}))


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _over_http(tool: Any, name: str, args: str) -> list[dict[str, Any]]:
    """Run `tool` with pydantic-ai's OpenAI chat model; return the tool messages it sent."""
    from openai import AsyncOpenAI
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    bodies: list[bytes] = []
    call = {"id": "call_1", "type": "function", "function": {"name": name, "arguments": args}}
    replies = [
        _completion({"role": "assistant", "content": None, "tool_calls": [call]}),
        _completion({"role": "assistant", "content": "done"}),
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(request.content)
        return httpx.Response(200, json=replies.pop(0))

    client = AsyncOpenAI(
        api_key="test",
        base_url="http://provider.test/v1",
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    model = OpenAIChatModel("m", provider=OpenAIProvider(openai_client=client))
    agent: Agent[None, str] = Agent(model)
    agent.tool_plain(tool)
    assert agent.run_sync("go").output == "done"
    assert len(bodies) == 2
    assert all(MARKER.encode() not in body for body in bodies)
    return [m for m in json.loads(bodies[1])["messages"] if m["role"] == "tool"]


def test_the_http_request_to_the_provider_holds_the_content_only() -> None:
    sent = _over_http(result_tool(find_hotels), "find_hotels", '{"city":"Oslo"}')
    assert sent == [{"role": "tool", "tool_call_id": "call_1", "content": CONTENT}]


def test_an_error_reaches_the_provider_as_pydantic_ais_error_object() -> None:
    # OpenAI chat has no error flag on a tool message, so pydantic-ai wraps a failed
    # return in {"error": ...}; the text inside is the content, exactly.
    sent = _over_http(result_tool(book_hotel), "book_hotel", '{"name":"Ritz"}')
    assert [json.loads(m["content"]) for m in sent] == [{"error": "no hotel called Ritz"}]


def test_the_docs_page_runs() -> None:
    assert len(python_blocks("pydantic-ai.md")) == 9  # and the two `toolwire check` examples
    namespace = run_page("pydantic-ai.md")
    assert namespace["hotels"].metadata.artifacts[0].data["rows"] == namespace["ROWS"]


def test_the_docs_install_command_names_an_extra_this_environment_satisfies() -> None:
    assert install_extras("pydantic-ai.md") == ["pydantic-ai"]
    assert_extra_installed("pydantic-ai")
