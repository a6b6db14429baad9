"""toolwire.adapters.langchain through LangChain's and LangGraph's real call paths."""

from __future__ import annotations

import asyncio
import json
import pickle
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

from framework_docs import Block, assert_extra_installed, install_extras, python_blocks, run_block
from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    convert_to_openai_messages,
)
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from pydantic import BaseModel, Field

from toolwire import ToolResult
from toolwire.adapters._common import RunOnlyArtifacts
from toolwire.adapters.langchain import ToolResultTool, result_tool
from toolwire.result import ToolArtifact

MARKER = "ARTIFACT-PAYLOAD-7f3a"


def artifacts() -> tuple[ToolArtifact, ...]:
    return (
        ToolArtifact.table("rows", ["id", "secret"], [["1", MARKER]]),
        ToolArtifact.text("raw", f"raw dump {MARKER}"),
    )


class LookupArgs(BaseModel):
    q: str


class Lookup(ToolResultTool):
    name: str = "lookup"
    description: str = "Look up records."
    args_schema: type[BaseModel] = LookupArgs

    def _run(self, q: str) -> ToolResult:
        if q == "missing":
            return ToolResult.error(f"no record matches {q!r}")
        return ToolResult.text(f"1 record for {q!r}", *artifacts())


class AsyncLookup(ToolResultTool):
    name: str = "async_lookup"
    description: str = "Look up records, asynchronously."
    args_schema: type[BaseModel] = LookupArgs

    def _run(self, q: str) -> ToolResult:
        raise AssertionError("the async path must use _arun")

    async def _arun(self, q: str) -> ToolResult:
        await asyncio.sleep(0)
        if q == "missing":
            return ToolResult.error("nothing found")
        return ToolResult.text(f"async record for {q}", *artifacts())


def call(name: str, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"type": "tool_call", "name": name, "args": args, "id": call_id}


def wire(messages: list[BaseMessage]) -> str:
    """What a provider integration sends: LangChain's OpenAI message conversion."""
    return json.dumps(convert_to_openai_messages(messages))


def assert_success(message: object, content: str) -> None:
    assert isinstance(message, ToolMessage)
    assert message.content == content
    assert message.status == "success"
    assert isinstance(message.artifact, RunOnlyArtifacts)
    assert message.artifact.records() == [a.to_dict() for a in artifacts()]
    assert MARKER not in wire([message])


# --- tool.invoke / ainvoke with a tool call -------------------------------------------


def test_invoke_tool_call_content_is_exact_and_artifacts_are_run_only() -> None:
    message = Lookup().invoke(call("lookup", {"q": "alice"}))
    assert_success(message, "1 record for 'alice'")
    assert message.tool_call_id == "c1"
    assert message.name == "lookup"


def test_error_result_is_a_status_error_message_without_artifacts() -> None:
    message = Lookup().invoke(call("lookup", {"q": "missing"}, "c7"))
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.content == "no record matches 'missing'"
    assert message.tool_call_id == "c7"
    assert message.name == "lookup"
    assert message.artifact is None


def test_ainvoke_runs_a_sync_tool_in_langchains_executor() -> None:
    message = asyncio.run(Lookup().ainvoke(call("lookup", {"q": "bob"})))
    assert_success(message, "1 record for 'bob'")
    error = asyncio.run(Lookup().ainvoke(call("lookup", {"q": "missing"})))
    assert isinstance(error, ToolMessage)
    assert error.status == "error"


def test_ainvoke_uses_an_async_arun() -> None:
    message = asyncio.run(AsyncLookup().ainvoke(call("async_lookup", {"q": "x"})))
    assert_success(message, "async record for x")
    error = asyncio.run(AsyncLookup().ainvoke(call("async_lookup", {"q": "missing"})))
    assert isinstance(error, ToolMessage)
    assert (error.status, error.content) == ("error", "nothing found")


def test_invoke_without_a_tool_call_returns_the_content_like_langchain() -> None:
    assert Lookup().invoke({"q": "carol"}) == "1 record for 'carol'"
    assert Lookup().invoke({"q": "missing"}) == "no record matches 'missing'"


def test_a_tool_body_called_directly_or_through_super_returns_its_result() -> None:
    class Audited(Lookup):
        name: str = "audited"

        def _run(self, q: str) -> ToolResult:
            inner = super()._run(q)
            assert isinstance(inner, ToolResult)
            return ToolResult.text(f"audited: {inner.content}", *inner.artifacts)

    direct = Lookup()._run("dave")
    assert isinstance(direct, ToolResult)
    assert direct.content == "1 record for 'dave'"
    message = Audited().invoke(call("audited", {"q": "erin"}))
    assert_success(message, "audited: 1 record for 'erin'")


def test_a_tool_that_invokes_another_tool_gets_its_own_conversion() -> None:
    class Outer(ToolResultTool):
        name: str = "outer"
        description: str = "Calls lookup."
        args_schema: type[BaseModel] = LookupArgs

        def _run(self, q: str) -> ToolResult:
            inner = Lookup().invoke(call("lookup", {"q": q}, "inner"))
            assert isinstance(inner, ToolMessage) and inner.tool_call_id == "inner"
            return ToolResult.text(f"outer saw {inner.content}", *inner.artifact)

    assert_success(Outer().invoke(call("outer", {"q": "f"})), "outer saw 1 record for 'f'")


def test_a_tool_returning_something_else_fails_loudly_with_its_name() -> None:
    class Sloppy(ToolResultTool):
        name: str = "sloppy"
        description: str = "Returns a dict."

        def _run(self) -> Any:
            return {"rows": [MARKER]}

    with pytest.raises(TypeError, match="LangChain tool 'sloppy' returned dict"):
        Sloppy().invoke(call("sloppy", {}))


def test_a_plain_str_is_accepted_while_migrating() -> None:
    @result_tool
    def legacy(q: str) -> str:
        """Old tool."""
        return f"legacy {q}"

    message = legacy.invoke(call("legacy", {"q": "g"}))
    assert isinstance(message, ToolMessage)
    assert (message.content, message.status) == ("legacy g", "success")
    assert message.artifact is None


def test_the_runtime_is_not_weakened() -> None:
    result = ToolResult.text("x", *artifacts())
    with pytest.raises(TypeError, match="no string form"):
        str(result)
    with pytest.raises(TypeError):
        pickle.dumps(result)


def test_a_subclass_without_args_schema_keeps_langchains_inference_and_injection() -> None:
    class Plain(BaseTool):
        name: str = "plain"
        description: str = "Counts."

        def _run(
            self,
            q: str,
            n: int = 1,
            *,
            config: RunnableConfig,
            run_manager: CallbackManagerForToolRun | None = None,
        ) -> str:
            raise AssertionError("only its schema is used")

    class Counting(ToolResultTool):
        name: str = "plain"
        description: str = "Counts."

        def _run(
            self,
            q: str,
            n: int = 1,
            *,
            config: RunnableConfig,
            run_manager: CallbackManagerForToolRun | None = None,
        ) -> ToolResult:
            injected = run_manager is not None and config is not None
            return ToolResult.text(f"{q} x{n}, injected={injected}", *artifacts())

    assert convert_to_openai_tool(Counting()) == convert_to_openai_tool(Plain())
    message = Counting().invoke(call("plain", {"q": "z", "n": 2}))
    assert_success(message, "z x2, injected=True")


# --- result_tool: the @tool counterpart ------------------------------------------------


def search(query: str, limit: int = 3) -> ToolResult:
    """Search the catalogue.

    Args:
        query: What to look for.
        limit: At most this many hits.
    """
    if not query:
        return ToolResult.error("empty query")
    return ToolResult.text(f"{limit} hits for {query}", *artifacts())


@pytest.mark.parametrize(
    "options",
    [{}, {"parse_docstring": True}, {"description": "Find."}, {"infer_schema": False}],
)
def test_result_tool_gives_the_model_what_tool_gives(options: dict[str, Any]) -> None:
    ours = result_tool(**options)(search)
    theirs = tool(**options)(search)
    assert convert_to_openai_tool(ours) == convert_to_openai_tool(theirs)
    assert isinstance(ours, type(theirs))
    assert ours.name == "search"


def test_result_tool_without_a_schema_takes_one_string_like_tool() -> None:
    single = result_tool(infer_schema=False)(search)
    assert_success(single.invoke(call("search", {"__arg1": "lamp"})), "3 hits for lamp")


def test_result_tool_maps_content_artifacts_and_errors() -> None:
    named = result_tool("catalogue_search")(search)
    assert named.name == "catalogue_search"
    assert_success(named.invoke(call("catalogue_search", {"query": "q"})), "3 hits for q")
    error = named.invoke(call("catalogue_search", {"query": ""}))
    assert isinstance(error, ToolMessage)
    assert (error.status, error.content, error.artifact) == ("error", "empty query", None)


def test_result_tool_on_a_coroutine() -> None:
    @result_tool
    async def fetch(url: str) -> ToolResult:
        """Fetch a page."""
        await asyncio.sleep(0)
        return ToolResult.text(f"fetched {url}", *artifacts())

    assert_success(asyncio.run(fetch.ainvoke(call("fetch", {"url": "u"}))), "fetched u")


# --- in a LangGraph agent with a checkpointer -------------------------------------------


class ScriptedChatModel(FakeMessagesListChatModel):
    """A fake chat model that accepts tools and keeps every prompt it was sent."""

    prompts: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def agent_graph(model: ScriptedChatModel, tools: list[BaseTool], saver: InMemorySaver) -> Any:
    bound = model.bind_tools(tools)

    def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [bound.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile(checkpointer=saver)


def stored_bytes(value: object) -> bytes:
    """Every bytes and str leaf a checkpointer holds, joined."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple)):
        return b"\n".join(stored_bytes(item) for item in value)
    return b""


def two_calls() -> AIMessage:
    return AIMessage(
        "",
        tool_calls=[
            {"name": "lookup", "args": {"q": "alice"}, "id": "call-ok"},
            {"name": "search", "args": {"query": ""}, "id": "call-err"},
        ],
    )


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_agent_graph_with_checkpointer(mode: str) -> None:
    model = ScriptedChatModel(responses=[two_calls(), AIMessage("done")])
    saver = InMemorySaver()
    app = agent_graph(model, [Lookup(), result_tool(search)], saver)
    config = {"configurable": {"thread_id": f"t-{mode}"}}
    inputs = {"messages": [HumanMessage("find alice")]}
    if mode == "sync":
        final = app.invoke(inputs, config)
    else:
        final = asyncio.run(app.ainvoke(inputs, config))

    # The run finished, and the live state holds the artifacts for the run's own use.
    assert final["messages"][-1].content == "done"
    by_id = {m.tool_call_id: m for m in final["messages"] if isinstance(m, ToolMessage)}
    assert_success(by_id["call-ok"], "1 record for 'alice'")
    assert (by_id["call-err"].status, by_id["call-err"].content) == ("error", "empty query")

    # The model read exactly the contents, and no byte of an artifact.
    second_prompt = model.prompts[1]
    tool_messages = [m for m in second_prompt if isinstance(m, ToolMessage)]
    assert [m.content for m in tool_messages] == ["1 record for 'alice'", "empty query"]
    for prompt in model.prompts:
        assert MARKER not in wire(prompt)

    # The checkpoint holds a payload-free stub, and a resumed state reads it back.
    stored = stored_bytes((saver.storage, saver.writes, saver.blobs))
    assert MARKER.encode() not in stored
    assert b"toolwire_run_only_artifacts" in stored
    resumed = app.get_state(config).values["messages"]
    resumed_ok = next(m for m in resumed if getattr(m, "tool_call_id", None) == "call-ok")
    assert resumed_ok.content == "1 record for 'alice'"
    assert resumed_ok.artifact == {"toolwire_run_only_artifacts": 2}


def test_a_result_without_artifacts_is_stored_as_the_str_was() -> None:
    @tool
    def weather(city: str) -> str:
        """Look a city up."""
        return f"sunny in {city}"

    @result_tool("weather")
    def migrated(city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"sunny in {city}")

    live, stored, checkpointed = [], [], []
    for each in (weather, migrated):
        asks = AIMessage("", tool_calls=[call("weather", {"city": "Oslo"}, "call-1")])
        saver = InMemorySaver()
        app = agent_graph(ScriptedChatModel(responses=[asks, AIMessage("done")]), [each], saver)
        config = {"configurable": {"thread_id": "t"}}
        final = app.invoke({"messages": [HumanMessage("go")]}, config)
        [message] = [m for m in final["messages"] if isinstance(m, ToolMessage)]
        assert (message.content, message.artifact) == ("sunny in Oslo", None)
        # `id` is LangGraph's own per-run uuid; every other field is compared.
        live.append(message.model_dump(exclude={"id"}))
        [resumed] = [
            m for m in app.get_state(config).values["messages"] if isinstance(m, ToolMessage)
        ]
        stored.append(resumed.model_dump(exclude={"id"}))
        kind, data = JsonPlusSerializer().dumps_typed(resumed.model_copy(update={"id": None}))
        checkpointed.append((kind, data))
    assert live[0] == live[1]
    assert stored[0] == stored[1] == live[0]
    assert checkpointed[0] == checkpointed[1]


def test_langgraph_serde_writes_the_stub_for_the_live_message() -> None:
    message = Lookup().invoke(call("lookup", {"q": "alice"}))
    serde = JsonPlusSerializer()
    kind, data = serde.dumps_typed(message)
    assert MARKER.encode() not in data
    restored = serde.loads_typed((kind, data))
    assert restored.content == message.content
    assert restored.artifact == {"toolwire_run_only_artifacts": 2}
    assert MARKER not in message.model_dump_json()
    assert pickle.loads(pickle.dumps(message)).artifact == ()


# --- packaging and docs -------------------------------------------------------------------


BLOCKS = python_blocks("langchain.md")


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line-{b.line}" for b in BLOCKS])
def test_docs_page_block_runs(block: Block) -> None:
    run_block("langchain.md", block)


def test_docs_page_has_blocks() -> None:
    assert len(BLOCKS) >= 2


def test_the_install_line_names_the_extra_this_environment_satisfies() -> None:
    assert install_extras("langchain.md") == ["langchain"]
    assert_extra_installed("langchain")
