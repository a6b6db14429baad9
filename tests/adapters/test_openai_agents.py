"""toolwire.adapters.openai_agents through `Runner.run`, with a scripted model and no network."""

from __future__ import annotations

import asyncio
import json
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("agents")

import httpx
from agents import (
    Agent,
    FunctionTool,
    RunConfig,
    RunContextWrapper,
    Runner,
    RunResult,
    ToolCallOutputItem,
    default_tool_error_function,
    function_tool,
)
from agents.exceptions import UserError
from agents.run_state import RunState
from agents.tracing import (
    Span,
    Trace,
    TracingProcessor,
    set_trace_processors,
    set_tracing_disabled,
)
from agents.tracing.processors import default_processor
from agents.tracing.span_data import FunctionSpanData
from framework_docs import assert_extra_installed, install_extras, python_blocks, run_page
from oa_scripted import ScriptedModel, final, tool_call
from openai import AsyncOpenAI

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.openai_agents import CUSTOM_DATA_KEY, ResultOutput, result_tool

MARKER = "ARTIFACT-ONLY-7f3a9c"
CONTENT = "3 hotels in Oslo; the cheapest is 90 EUR"
NO_TRACING = RunConfig(tracing_disabled=True)


def _table() -> ToolArtifact:
    return ToolArtifact.table("hotels", ["name", "secret"], [["Grand", MARKER]])


@result_tool
def find_hotels(city: str, limit: int = 3) -> ToolResult:
    """Find hotels in a city.

    Args:
        city: The city to search.
        limit: How many hotels to list.
    """
    return ToolResult.text(CONTENT, _table())


@result_tool
def book_hotel(name: str) -> ToolResult:
    """Book a hotel by name."""
    return ToolResult.error(f"no hotel called {name}")


def _run(tool: FunctionTool, args: dict[str, Any], model: ScriptedModel | None = None) -> Any:
    model = model or ScriptedModel(tool_call(tool.name, args), final("done"))
    agent = Agent(name="a", model=model, tools=[tool])
    result = asyncio.run(Runner.run(agent, "go", run_config=NO_TRACING))
    return model, result


def _tool_output(model: ScriptedModel) -> Any:
    """The `function_call_output` the model was sent on its second call."""
    second = model.inputs[1]
    assert isinstance(second, list)
    outputs = [item for item in second if item.get("type") == "function_call_output"]
    assert len(outputs) == 1
    return outputs[0]["output"]


def _output_item(result: RunResult) -> ToolCallOutputItem:
    items = [item for item in result.new_items if isinstance(item, ToolCallOutputItem)]
    assert len(items) == 1
    return items[0]


def test_schema_is_the_one_of_the_same_function_returning_str() -> None:
    def find_hotels(city: str, limit: int = 3) -> str:
        """Find hotels in a city.

        Args:
            city: The city to search.
            limit: How many hotels to list.
        """
        return ""

    plain = function_tool(find_hotels)
    assert isinstance(find_hotels_tool := globals()["find_hotels"], FunctionTool)
    assert find_hotels_tool.name == plain.name == "find_hotels"
    assert find_hotels_tool.description == plain.description
    assert find_hotels_tool.params_json_schema == plain.params_json_schema
    assert find_hotels_tool.strict_json_schema == plain.strict_json_schema
    assert "limit" in json.dumps(plain.params_json_schema)


def test_model_reads_exactly_the_content_and_no_artifact_byte() -> None:
    model, result = _run(find_hotels, {"city": "Oslo"})
    output = _tool_output(model)
    assert type(output) is str
    assert output == CONTENT
    for sent in model.inputs:
        assert MARKER not in repr(sent)
        assert MARKER not in json.dumps(sent, default=str)
    assert result.final_output == "done"


def test_artifacts_are_in_the_live_item_and_custom_data_has_no_payload() -> None:
    _, result = _run(find_hotels, {"city": "Oslo"})
    item = _output_item(result)
    assert isinstance(item.output, ResultOutput)
    assert item.output.artifacts == (_table(),)
    assert item.output.artifacts[0].data["rows"] == [["Grand", MARKER]]
    assert item.output.content == CONTENT
    assert item.custom_data == {
        CUSTOM_DATA_KEY: {"is_error": False, "toolwire_run_only_artifacts": 1}
    }
    with pytest.raises(TypeError, match="no string form"):
        str(item.output.result)


def test_next_turn_and_run_state_hold_the_content_not_the_artifacts() -> None:
    _, result = _run(find_hotels, {"city": "Oslo"})
    next_turn = json.dumps(result.to_input_list())
    assert CONTENT in next_turn
    assert MARKER not in next_turn

    state = result.to_state()
    persisted = state.to_string()
    assert CONTENT in persisted
    assert MARKER not in persisted
    assert '"toolwire_run_only_artifacts": 1' in persisted or (
        '"toolwire_run_only_artifacts":1' in persisted
    )

    agent = Agent(name="a", model=ScriptedModel(), tools=[find_hotels])
    restored = asyncio.run(RunState.from_string(agent, persisted))
    outputs = [i for i in restored._generated_items if isinstance(i, ToolCallOutputItem)]
    assert [i.output for i in outputs] == [CONTENT]


def test_a_result_without_artifacts_is_stored_as_the_str_was() -> None:
    def lookup(city: str) -> str:
        """Look a city up."""
        return f"sunny in {city}"

    def migrated(city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"sunny in {city}")

    runs = []
    for each in (function_tool(lookup), result_tool(name_override="lookup")(migrated)):
        _, result = _run(each, {"city": "Oslo"})
        item = _output_item(result)
        assert (str(item.output), item.custom_data) == ("sunny in Oslo", None)
        runs.append((result.to_state().to_json(), result.to_input_list()))
    # The whole resumable state and the next turn's input: nothing in them differs (the
    # scripted model gives fixed ids, and tracing is off). The live `item.output` is not
    # stored: it is a `ResultOutput` whose str() is the content.
    assert '"sunny in Oslo"' in json.dumps(runs[0][0])
    assert runs[1] == runs[0]


def test_a_pickled_output_is_its_content() -> None:
    _, result = _run(find_hotels, {"city": "Oslo"})
    output = _output_item(result).output
    assert pickle.loads(pickle.dumps(output)) == CONTENT
    assert MARKER.encode() not in pickle.dumps(output)


class _Spans(TracingProcessor):
    def __init__(self) -> None:
        self.ended: list[Span[Any]] = []

    def on_trace_start(self, trace: Trace) -> None: ...
    def on_trace_end(self, trace: Trace) -> None: ...
    def on_span_start(self, span: Span[Any]) -> None: ...
    def on_span_end(self, span: Span[Any]) -> None:
        self.ended.append(span)

    def shutdown(self) -> None: ...
    def force_flush(self) -> None: ...


@pytest.fixture
def spans() -> Iterator[_Spans]:
    collector = _Spans()
    set_trace_processors([collector])
    try:
        yield collector
    finally:
        set_trace_processors([default_processor()])


def test_an_error_result_is_a_tool_failure_the_model_reads_verbatim(spans: _Spans) -> None:
    model = ScriptedModel(tool_call("book_hotel", {"name": "Ritz"}), final("sorry"))
    agent = Agent(name="a", model=model, tools=[book_hotel])
    result = asyncio.run(Runner.run(agent, "go"))
    assert _tool_output(model) == "no hotel called Ritz"
    item = _output_item(result)
    assert item.output == "no hotel called Ritz"
    assert item.custom_data == {
        CUSTOM_DATA_KEY: {"is_error": True, "toolwire_run_only_artifacts": 0}
    }
    failed = [
        s for s in spans.ended if isinstance(s.span_data, FunctionSpanData) and s.error is not None
    ]
    assert [s.span_data.name for s in failed] == ["book_hotel"]
    assert failed[0].error is not None
    assert failed[0].error["data"]["error"] == "no hotel called Ritz"


def test_an_exception_still_gets_the_sdk_or_the_users_error_text() -> None:
    @result_tool
    def broken(city: str) -> ToolResult:
        """Always raises."""
        raise RuntimeError("db down")

    model, result = _run(broken, {"city": "Oslo"})
    sdk_text = default_tool_error_function(RunContextWrapper(None), RuntimeError("db down"))
    assert _tool_output(model) == sdk_text
    assert _output_item(result).custom_data == {
        CUSTOM_DATA_KEY: {"is_error": True, "toolwire_run_only_artifacts": 0}
    }

    @result_tool(failure_error_function=lambda ctx, error: f"custom: {error}")
    def broken_custom(city: str) -> ToolResult:
        """Always raises."""
        raise RuntimeError("db down")

    model, _ = _run(broken_custom, {"city": "Oslo"})
    assert _tool_output(model) == "custom: db down"

    @result_tool(failure_error_function=None)
    def broken_raising(city: str) -> ToolResult:
        """Always raises."""
        raise RuntimeError("db down")

    with pytest.raises(UserError, match="Error running tool broken_raising: db down"):
        _run(broken_raising, {"city": "Oslo"})

    @result_tool(failure_error_function=None)
    def refusing(city: str) -> ToolResult:
        """An error result is never an exception, even without a failure function."""
        return ToolResult.error("closed")

    model, _ = _run(refusing, {"city": "Oslo"})
    assert _tool_output(model) == "closed"


def test_a_tool_that_returns_something_else_is_reported_not_stringified() -> None:
    errors: list[Exception] = []

    def record(ctx: RunContextWrapper[Any], error: Exception) -> str:
        errors.append(error)
        return "failed"

    def sloppy(city: str) -> ToolResult:
        """Returns a dict by mistake."""
        return {"rows": [MARKER]}  # type: ignore[return-value]

    model, _ = _run(result_tool(failure_error_function=record)(sloppy), {"city": "Oslo"})
    assert _tool_output(model) == "failed"
    [error] = errors
    assert isinstance(error, TypeError)
    assert "sloppy returned dict, not a ToolResult" in str(error)
    assert MARKER not in str(error)

    model, _ = _run(result_tool(sloppy), {"city": "Oslo"})
    assert _tool_output(model) == default_tool_error_function(RunContextWrapper(None), error)


def test_async_tools_context_tools_options_and_extra_custom_data() -> None:
    @result_tool(
        name_override="lookup",
        custom_data_extractor=lambda data: {"app": "kept"},
    )
    async def lookup_async(ctx: RunContextWrapper[Any], city: str) -> ToolResult:
        """Look a city up."""
        assert ctx.context == {"user": "u1"}
        return ToolResult.text(f"{city} is fine", _table())

    assert lookup_async.name == "lookup"
    assert "ctx" not in json.dumps(lookup_async.params_json_schema)
    model = ScriptedModel(tool_call("lookup", {"city": "Oslo"}), final("ok"))
    agent = Agent(name="a", model=model, tools=[lookup_async])
    result = asyncio.run(Runner.run(agent, "go", context={"user": "u1"}, run_config=NO_TRACING))
    assert _tool_output(model) == "Oslo is fine"
    item = _output_item(result)
    assert item.custom_data == {
        "app": "kept",
        CUSTOM_DATA_KEY: {"is_error": False, "toolwire_run_only_artifacts": 1},
    }
    assert isinstance(item.output, ResultOutput)
    assert item.output.artifacts[0].data["rows"] == [["Grand", MARKER]]


def test_programmatic_callers_are_refused_with_one_line() -> None:
    with pytest.raises(ValueError, match="programmatic callers take a JSON value"):
        result_tool(allowed_callers=["programmatic"])


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def test_the_http_request_to_the_provider_holds_the_content_only() -> None:
    """The SDK's own Chat Completions model, over a mock transport: the real wire bytes."""
    from agents import OpenAIChatCompletionsModel

    bodies: list[bytes] = []
    replies = [
        _completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "find_hotels", "arguments": '{"city":"Oslo"}'},
                    }
                ],
            }
        ),
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
    model = OpenAIChatCompletionsModel(model="m", openai_client=client)
    agent = Agent(name="a", model=model, tools=[find_hotels])
    result = asyncio.run(Runner.run(agent, "go", run_config=NO_TRACING))
    assert result.final_output == "done"
    assert len(bodies) == 2
    sent = json.loads(bodies[1])
    tool_messages = [m for m in sent["messages"] if m["role"] == "tool"]
    assert tool_messages == [{"role": "tool", "tool_call_id": "call_1", "content": CONTENT}]
    assert all(MARKER.encode() not in body for body in bodies)


def test_the_docs_page_runs() -> None:
    assert len(python_blocks("openai-agents.md")) == 8  # and the two `toolwire check` examples
    model = ScriptedModel(tool_call("find_hotels", {"city": "Oslo"}), final("Grand, 90 EUR"))

    def new_model() -> ScriptedModel:
        return ScriptedModel(tool_call("greet", {"name": "Ada"}), final("said hello"))

    set_tracing_disabled(True)
    try:
        namespace = run_page("openai-agents.md", {"model": model, "new_model": new_model})
    finally:
        set_tracing_disabled(False)
    assert namespace["result"].final_output == "Grand, 90 EUR"
    assert len(namespace["states"]) == 2


def test_the_docs_install_command_names_an_extra_this_environment_satisfies() -> None:
    assert install_extras("openai-agents.md") == ["openai-agents"]
    assert_extra_installed("openai-agents")
