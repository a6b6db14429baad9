"""Every adapter is ADR-108's seam: what leaves for the framework is coerced and bounded.

For each framework (fastmcp too), one agent run with its own test model calls four tools, each
returning a 1 MB content (or content with lone surrogates) and a 1 MB artifact:

- `big`, default bounds: the model reads exactly 50 000 bytes ending with the marker, and
  the run-only channel holds the one "Artifacts omitted" TEXT artifact ("collapse");
- `off`, `bounds=None`: the full 1 MB content and the 1 MB artifact pass;
- `drop`, `Bounds(content=2 MB, policy="drop")`: the full content passes (a larger bound),
  the 1 MB artifact is dropped on its own and the small one after it is kept;
- `bad`, default bounds: invalid UTF-8 (surrogateescape'd bytes) and a lone surrogate in
  the content reach the model as U+FFFD.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters import Bounds, default_bounds, set_default_bounds
from toolwire.bounds import OMITTED_LABEL, truncation_marker

BIG = "c" * 1_000_000
HUGE = ToolArtifact.text("dump", "a" * 1_000_000)
SMALL = ToolArtifact.text("note", "kept")
# A lone surrogate, and the byte 0xE9 as `surrogateescape` decodes it from invalid UTF-8.
BAD = "ok \ud800 and caf" + b"\xe9".decode("utf-8", "surrogateescape")
CLEAN = "ok \ufffd and caf\ufffd"
MARKER = truncation_marker(50_000)
CUT = BIG[: 50_000 - len(MARKER.encode("utf-8"))] + MARKER
OMITTED = (ToolArtifact.text(OMITTED_LABEL, "exceeded 50000 bytes"),)
DROP = Bounds(content=2_000_000, policy="drop")
KINDS = ("big", "off", "drop", "bad")

# What each tool's call must give: (the text the model reads, the run-only artifacts).
EXPECTED: dict[str, tuple[str, tuple[ToolArtifact, ...]]] = {
    "big": (CUT, OMITTED),
    "off": (BIG, (HUGE,)),
    "drop": (BIG, (SMALL,)),
    "bad": (CLEAN, (SMALL,)),
}


def result_for(kind: str) -> ToolResult:
    if kind == "bad":
        return ToolResult.text(BAD, SMALL)
    if kind == "drop":
        return ToolResult.text(BIG, HUGE, SMALL)
    return ToolResult.text(BIG, HUGE)


def bounds_for(kind: str) -> Any:
    return {"off": None, "drop": DROP}.get(kind, "default")


Seen = dict[str, tuple[str, tuple[ToolArtifact, ...]]]


def check(seen: Seen) -> None:
    assert sorted(seen) == sorted(KINDS)
    text, artifacts = seen["big"]
    assert len(text.encode("utf-8")) == 50_000 and text.endswith(MARKER)
    for kind in KINDS:
        text, artifacts = seen[kind]
        expected_text, expected_artifacts = EXPECTED[kind]
        assert len(text) == len(expected_text), kind
        assert text == expected_text, kind
        assert [a.to_dict() for a in artifacts] == [a.to_dict() for a in expected_artifacts], kind


@pytest.fixture(autouse=True)
def _default_restored() -> Iterator[None]:
    previous = default_bounds()
    yield
    set_default_bounds(previous)


# --- LangChain / LangGraph -------------------------------------------------------------


def run_langchain() -> Seen:
    pytest.importorskip("langgraph")
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from test_langchain import ScriptedChatModel, agent_graph

    from toolwire.adapters.langchain import ToolResultTool, result_tool

    class Off(ToolResultTool):
        name: str = "off"
        description: str = "The off tool."

        def _run(self, q: str) -> ToolResult:
            return result_for("off")

    def make(kind: str) -> Any:
        def body(q: str) -> ToolResult:
            return result_for(kind)

        body.__doc__ = f"The {kind} tool."
        return result_tool(kind, bounds=bounds_for(kind))(body)

    tools = [make("big"), Off(bounds=None), make("drop"), make("bad")]
    calls = [{"name": k, "args": {"q": "x"}, "id": k} for k in KINDS]
    model = ScriptedChatModel(responses=[AIMessage("", tool_calls=calls), AIMessage("done")])
    app = agent_graph(model, tools, InMemorySaver())
    final = app.invoke({"messages": [HumanMessage("go")]}, {"configurable": {"thread_id": "b"}})
    sent = {m.tool_call_id: m.content for m in model.prompts[-1] if isinstance(m, ToolMessage)}
    live = {m.tool_call_id: m.artifact for m in final["messages"] if isinstance(m, ToolMessage)}
    return {kind: (sent[kind], tuple(live[kind])) for kind in KINDS}


# --- MCP ---------------------------------------------------------------------------------


def run_mcp() -> Seen:
    pytest.importorskip("mcp")
    from test_mcp import FastMCP, talk

    from toolwire.adapters.mcp import ARTIFACTS_KEY, result_tool

    server = FastMCP("bounds")
    for kind in KINDS:

        def body(q: str, kind: str = kind) -> ToolResult:
            return result_for(kind)

        body.__name__ = kind
        server.tool()(result_tool(body, bounds=bounds_for(kind)))

    async def conversation(session: Any) -> Seen:
        seen: Seen = {}
        for kind in KINDS:
            # What the client (the host's model side) receives: the raw CallToolResult.
            received = await session.call_tool(kind, {"q": "x"})
            [block] = received.content
            records = (received.meta or {}).get(ARTIFACTS_KEY, [])
            artifacts = tuple(ToolArtifact(r["type"], r["label"], r["data"]) for r in records)
            seen[kind] = (block.text, artifacts)
        return seen

    result: Seen = talk(server, conversation)
    return result


# --- FastMCP (the standalone package) ------------------------------------------------------


def run_fastmcp() -> Seen:
    pytest.importorskip("fastmcp")
    from fastmcp import Client, FastMCP

    from toolwire.adapters.fastmcp import ARTIFACTS_KEY, result_tool

    server = FastMCP("bounds")
    for kind in KINDS:

        def body(q: str, kind: str = kind) -> ToolResult:
            return result_for(kind)

        body.__name__ = kind
        server.tool(result_tool(body, bounds=bounds_for(kind)))

    async def conversation() -> Seen:
        seen: Seen = {}
        async with Client(server) as client:
            for kind in KINDS:
                received = await client.call_tool(kind, {"q": "x"}, raise_on_error=False)
                [block] = received.content
                records = (received.meta or {}).get(ARTIFACTS_KEY, [])
                artifacts = tuple(ToolArtifact(r["type"], r["label"], r["data"]) for r in records)
                seen[kind] = (block.text, artifacts)
        return seen

    return asyncio.run(conversation())


# --- OpenAI Agents SDK -------------------------------------------------------------------


def run_openai_agents() -> Seen:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from agents.items import ToolCallOutputItem
    from oa_scripted import ScriptedModel, final, tool_call

    from toolwire.adapters.openai_agents import ResultOutput, result_tool

    def make(kind: str) -> Any:
        def body(q: str) -> ToolResult:
            return result_for(kind)

        body.__doc__ = f"The {kind} tool."
        return result_tool(body, bounds=bounds_for(kind), name_override=kind)

    calls = [tool_call(kind, {"q": "x"}, call_id=kind) for kind in KINDS]
    model = ScriptedModel(*calls, final("done"))
    agent = Agent(name="a", model=model, tools=[make(kind) for kind in KINDS])
    run = asyncio.run(Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True)))
    last = model.inputs[-1]
    assert isinstance(last, list)
    sent = {
        item["call_id"]: item["output"]
        for item in last
        if item.get("type") == "function_call_output"
    }
    live: dict[str, tuple[ToolArtifact, ...]] = {}
    for item in run.new_items:
        if isinstance(item, ToolCallOutputItem):
            assert isinstance(item.output, ResultOutput)
            live[item.raw_item["call_id"]] = tuple(item.output.artifacts)  # type: ignore[index]
    return {kind: (sent[kind], live[kind]) for kind in KINDS}


# --- pydantic-ai -------------------------------------------------------------------------


def run_pydantic_ai() -> Seen:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from toolwire.adapters.pydantic_ai import ArtifactMetadata, result_tool

    requests: list[list[ModelMessage]] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        requests.append(list(messages))
        if len(requests) == 1:
            return ModelResponse(parts=[ToolCallPart(k, {"q": "x"}, tool_call_id=k) for k in KINDS])
        return ModelResponse(parts=[TextPart("done")])

    agent: Agent[None, str] = Agent(FunctionModel(script))
    for kind in KINDS:

        def body(q: str, kind: str = kind) -> ToolResult:
            return result_for(kind)

        body.__name__ = kind
        agent.tool_plain(result_tool(bounds=bounds_for(kind))(body))
    assert agent.run_sync("go").output == "done"
    seen: Seen = {}
    for message in requests[-1]:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, ToolReturnPart):
                    assert isinstance(part.metadata, ArtifactMetadata)
                    seen[part.tool_call_id] = (part.model_response_str(), part.metadata.artifacts)
    return seen


# --- CrewAI ------------------------------------------------------------------------------


def run_crewai() -> Seen:
    pytest.importorskip("crewai")
    from ca_scripted import ScriptedLLM, call, final
    from crewai.hooks import register_after_tool_call_hook, unregister_after_tool_call_hook
    from crewai.hooks.tool_hooks import ToolCallHookContext
    from test_crewai import observations, run_agent

    from toolwire.adapters.crewai import ResultTool, result_of, tool

    class Off(ResultTool):
        name: str = "off"
        description: str = "The off tool."

        def _run(self, q: str) -> ToolResult:
            return result_for("off")

    def make(kind: str) -> Any:
        def body(q: str) -> ToolResult:
            return result_for(kind)

        body.__doc__ = f"The {kind} tool."
        return tool(kind, bounds=bounds_for(kind))(body)

    raw: list[ToolResult | None] = []

    def hook(context: ToolCallHookContext) -> None:
        raw.append(result_of(context))

    calls = [call(True, index, kind, {"q": "x"}) for index, kind in enumerate(KINDS)]
    llm = ScriptedLLM(model="scripted", native=True, replies=[*calls, final(True, "fine")])
    register_after_tool_call_hook(hook)
    try:
        tools = [make("big"), Off(bounds=None), make("drop"), make("bad")]
        # CrewAI's own compaction would move a result this size to a temp file.
        answer, _ = run_agent(llm, tools, use_better_compaction=False)
    finally:
        unregister_after_tool_call_hook(hook)
    assert answer == "fine"
    texts = observations(llm)
    assert len(texts) == len(raw) == len(KINDS)
    return {
        kind: (text, result.artifacts if result else ())
        for kind, text, result in zip(KINDS, texts, raw, strict=True)
    }


# --- LlamaIndex --------------------------------------------------------------------------


def run_llamaindex() -> Seen:
    pytest.importorskip("llama_index.core")
    from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    from toolwire.adapters.llamaindex import ResultFunctionTool

    prompts: list[list[ChatMessage]] = []

    def script(messages: Any, **kwargs: Any) -> ChatMessage:
        prompts.append(list(messages))
        if any(m.role == MessageRole.TOOL for m in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, content="done")
        calls = [ToolCallBlock(tool_call_id=k, tool_name=k, tool_kwargs={"q": "x"}) for k in KINDS]
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=list(calls))

    def make(kind: str) -> ResultFunctionTool:
        def body(q: str) -> ToolResult:
            """A tool."""
            return result_for(kind)

        return ResultFunctionTool.from_defaults(body, name=kind, bounds=bounds_for(kind))

    async def run() -> list[ToolCallResult]:
        agent = FunctionAgent(
            tools=[make(kind) for kind in KINDS],
            llm=MockFunctionCallingLLM(response_generator=script),
        )
        handler = agent.run(user_msg="go")
        results = [ev async for ev in handler.stream_events() if isinstance(ev, ToolCallResult)]
        await handler
        return results

    results = asyncio.run(run())
    sent = {
        m.additional_kwargs["tool_call_id"]: m.content
        for m in prompts[-1]
        if m.role == MessageRole.TOOL
    }
    live = {r.tool_id: tuple(r.tool_output.raw_output) for r in results}
    return {kind: (sent[kind], live[kind]) for kind in KINDS}


# --- smolagents --------------------------------------------------------------------------


def run_smolagents() -> Seen:
    pytest.importorskip("smolagents")
    from sa_scripted import ScriptedModel, call
    from smolagents import ToolCallingAgent
    from smolagents.agents import ToolOutput

    from toolwire.adapters.smolagents import ResultText, ResultTool, tool

    class Off(ResultTool):  # type: ignore[misc]
        name = "off"
        description = "The off tool."
        inputs = {"q": {"type": "string", "description": "Anything."}}  # noqa: RUF012
        output_type = "string"

        def forward(self, q: str) -> ToolResult:
            return result_for("off")

    def make(kind: str) -> Any:
        def body(q: str) -> ToolResult:
            """A tool.

            Args:
                q: Anything.
            """
            return result_for(kind)

        body.__name__ = kind
        return tool(bounds=bounds_for(kind))(body)

    off = Off()
    off.bounds = None
    replies = [call(i, kind, {"q": "x"}) for i, kind in enumerate(KINDS)]
    model = ScriptedModel([*replies, call(9, "final_answer", {"answer": "fine"})])
    agent = ToolCallingAgent(
        tools=[make("big"), off, make("drop"), make("bad")], model=model, verbosity_level=0
    )
    events = list(agent.run("go", stream=True))
    live = {e.tool_call.name: e.output for e in events if isinstance(e, ToolOutput)}
    texts = [text.removeprefix("Observation:\n") for text in model.tool_responses()]
    seen: Seen = {}
    for kind, text in zip(KINDS, texts, strict=True):
        output = live[kind]
        assert isinstance(output, ResultText)
        seen[kind] = (text, output.result.artifacts)
    return seen


RUNS: dict[str, Callable[[], Seen]] = {
    "langchain": run_langchain,
    "mcp": run_mcp,
    "fastmcp": run_fastmcp,
    "openai-agents": run_openai_agents,
    "pydantic-ai": run_pydantic_ai,
    "crewai": run_crewai,
    "llamaindex": run_llamaindex,
    "smolagents": run_smolagents,
}


@pytest.mark.parametrize("framework", sorted(RUNS))
def test_the_seam_bounds_coerces_and_can_be_configured(framework: str) -> None:
    check(RUNS[framework]())


def test_a_json_dump_of_what_the_model_read_is_50000_bytes_of_content() -> None:
    # The marker's ellipsis is one character of three bytes: bytes are what is capped.
    assert len(CUT) == 50_000 - 2 and len(CUT.encode("utf-8")) == 50_000
    assert json.loads(json.dumps(CUT)) == CUT


# --- the one default, read at each call; the errors; the host side of MCP ----------------

SMALL_DEFAULT = Bounds(content=1_000, artifacts=0)


def body(q: str) -> ToolResult:
    """A tool."""
    return result_for("big")


def direct_langchain() -> str:
    pytest.importorskip("langchain_core")
    from toolwire.adapters.langchain import result_tool

    made = result_tool(body)
    set_default_bounds(SMALL_DEFAULT)
    call = {"type": "tool_call", "name": "body", "args": {"q": "x"}, "id": "1"}
    message = made.invoke(call)
    assert [a.to_dict() for a in message.artifact] == [
        ToolArtifact.text(OMITTED_LABEL, "exceeded 0 bytes").to_dict()
    ]
    text: str = message.content
    return text


def direct_mcp() -> str:
    pytest.importorskip("mcp")
    from toolwire.adapters.mcp import result_tool

    made = result_tool(body)
    set_default_bounds(SMALL_DEFAULT)
    text: str = made("x").content[0].text
    return text


def direct_fastmcp() -> str:
    pytest.importorskip("fastmcp")
    from toolwire.adapters.fastmcp import result_tool

    made = result_tool(body)
    set_default_bounds(SMALL_DEFAULT)
    text: str = made("x").content[0].text
    return text


def direct_pydantic_ai() -> str:
    pytest.importorskip("pydantic_ai")
    from toolwire.adapters.pydantic_ai import result_tool

    made = result_tool(body)
    set_default_bounds(SMALL_DEFAULT)
    text: str = made("x").return_value
    return text


def direct_crewai() -> str:
    pytest.importorskip("crewai")
    from toolwire.adapters.crewai import tool

    made = tool("body")(body)
    set_default_bounds(SMALL_DEFAULT)
    return made.format_output_for_agent(made.run(q="x"))


def direct_llamaindex() -> str:
    pytest.importorskip("llama_index.core")
    from toolwire.adapters.llamaindex import ResultFunctionTool

    made = ResultFunctionTool.from_defaults(body)
    set_default_bounds(SMALL_DEFAULT)
    return made.call(q="x").content


def direct_smolagents() -> str:
    pytest.importorskip("smolagents")
    from toolwire.adapters.smolagents import tool

    def lookup(q: str) -> ToolResult:
        """A tool.

        Args:
            q: Anything.
        """
        return result_for("big")

    made = tool(lookup)
    set_default_bounds(SMALL_DEFAULT)
    return str(made(q="x"))


def direct_openai_agents() -> str:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from oa_scripted import ScriptedModel, final, tool_call

    from toolwire.adapters.openai_agents import result_tool

    made = result_tool(body)
    set_default_bounds(SMALL_DEFAULT)
    model = ScriptedModel(tool_call("body", {"q": "x"}), final("done"))
    agent = Agent(name="a", model=model, tools=[made])
    asyncio.run(Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True)))
    last = model.inputs[-1]
    assert isinstance(last, list)
    [text] = [i["output"] for i in last if i.get("type") == "function_call_output"]
    assert isinstance(text, str)
    return text


DIRECT: dict[str, Callable[[], str]] = {
    "langchain": direct_langchain,
    "mcp": direct_mcp,
    "fastmcp": direct_fastmcp,
    "openai-agents": direct_openai_agents,
    "pydantic-ai": direct_pydantic_ai,
    "crewai": direct_crewai,
    "llamaindex": direct_llamaindex,
    "smolagents": direct_smolagents,
}


@pytest.mark.parametrize("framework", sorted(DIRECT))
def test_the_default_is_read_at_each_call(framework: str) -> None:
    text = DIRECT[framework]()
    assert len(text.encode("utf-8")) == 1_000
    assert text.endswith(truncation_marker(1_000))


def test_set_default_bounds_none_turns_bounding_off_and_returns_the_old_default() -> None:
    assert set_default_bounds(None) == Bounds()
    assert default_bounds() == Bounds.off()
    # Off: nothing to change, so the very same result goes on.
    result = result_for("big")
    assert Bounds.off().apply(result) is result


def test_an_error_result_is_bounded_too() -> None:
    failed = ToolResult.error(BIG)
    assert Bounds().apply(failed) == ToolResult.error(CUT)
    short = ToolResult.error("short")
    assert Bounds().apply(short) is short


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Bounds(content=10), "smaller than the 39-byte truncation marker"),
        (lambda: Bounds(artifacts=-1), "artifacts must not be negative"),
        (lambda: Bounds(policy="keep"), "unknown artifact policy 'keep'"),  # type: ignore[arg-type]
        (lambda: Bounds(content=1.5), "content must be an int"),  # type: ignore[arg-type]
        (lambda: set_default_bounds(50_000), "bounds must be a toolwire.bounds.Bounds or None"),  # type: ignore[arg-type]
    ],
)
def test_bad_bounds_are_one_line_errors(make: Callable[[], object], message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message) as error:
        make()
    assert "\n" not in str(error.value)


def bad_option_langchain() -> object:
    from toolwire.adapters.langchain import result_tool

    return result_tool(bounds=50_000)  # type: ignore[call-overload]


def bad_option_mcp() -> object:
    from toolwire.adapters.mcp import result_tool

    return result_tool(body, bounds=50_000)  # type: ignore[call-overload]


def bad_option_fastmcp() -> object:
    from toolwire.adapters.fastmcp import result_tool

    return result_tool(body, bounds=50_000)  # type: ignore[call-overload]


def bad_option_openai_agents() -> object:
    from toolwire.adapters.openai_agents import result_tool

    return result_tool(body, bounds=50_000)  # type: ignore[arg-type]


def bad_option_pydantic_ai() -> object:
    from toolwire.adapters.pydantic_ai import result_tool

    return result_tool(body, bounds=50_000)  # type: ignore[call-overload]


def bad_option_crewai() -> object:
    from toolwire.adapters.crewai import tool

    return tool("body", bounds=50_000)  # type: ignore[call-overload]


def bad_option_llamaindex() -> object:
    from toolwire.adapters.llamaindex import ResultFunctionTool

    return ResultFunctionTool.from_defaults(body, bounds=50_000)  # type: ignore[arg-type]


def bad_option_smolagents() -> object:
    from toolwire.adapters.smolagents import tool

    return tool(bounds=50_000)  # type: ignore[call-overload]


def bad_option_langchain_class() -> object:
    from toolwire.adapters.langchain import ToolResultTool

    class Dump(ToolResultTool):
        name: str = "dump"
        description: str = "Dump."

        def _run(self, q: str) -> ToolResult:
            return result_for("big")

    return Dump(bounds=50_000)


def bad_option_crewai_class() -> object:
    from toolwire.adapters.crewai import ResultTool

    class Dump(ResultTool):
        name: str = "dump"
        description: str = "Dump."

        def _run(self, q: str) -> ToolResult:
            return result_for("big")

    return Dump(bounds=50_000)


def bad_option_smolagents_attribute() -> object:
    from toolwire.adapters.smolagents import tool

    def lookup(q: str) -> ToolResult:
        """A tool.

        Args:
            q: Anything.
        """
        return result_for("big")

    made = tool(lookup)
    made.bounds = 50_000  # an attribute takes anything: checked at the call
    return made(q="x")


BAD_OPTION: dict[str, tuple[str, Callable[[], object]]] = {
    "langchain-class": ("langchain_core", bad_option_langchain_class),
    "crewai-class": ("crewai", bad_option_crewai_class),
    "smolagents-attribute": ("smolagents", bad_option_smolagents_attribute),
    "langchain": ("langchain_core", bad_option_langchain),
    "mcp": ("mcp", bad_option_mcp),
    "fastmcp": ("fastmcp", bad_option_fastmcp),
    "openai-agents": ("agents", bad_option_openai_agents),
    "pydantic-ai": ("pydantic_ai", bad_option_pydantic_ai),
    "crewai": ("crewai", bad_option_crewai),
    "llamaindex": ("llama_index.core", bad_option_llamaindex),
    "smolagents": ("smolagents", bad_option_smolagents),
}


@pytest.mark.parametrize("framework", sorted(BAD_OPTION))
def test_a_bad_bounds_option_is_a_one_line_type_error(framework: str) -> None:
    module, make = BAD_OPTION[framework]
    pytest.importorskip(module)
    with pytest.raises(TypeError, match=r"bounds must be a toolwire\.bounds\.Bounds") as error:
        make()
    assert "\n" not in str(error.value) and "got int" in str(error.value)


def test_an_mcp_host_bounds_what_any_server_sent() -> None:
    pytest.importorskip("mcp")
    from mcp.types import CallToolResult

    from toolwire.adapters.mcp import from_call_tool_result

    foreign = CallToolResult.model_validate({"content": [{"type": "text", "text": BIG}]})
    assert from_call_tool_result(foreign).content == CUT
    assert from_call_tool_result(foreign, bounds=None).content == BIG


def test_a_fastmcp_client_bounds_what_any_server_sent() -> None:
    pytest.importorskip("fastmcp")
    from mcp.types import CallToolResult

    from toolwire.adapters.fastmcp import from_call_tool_result

    foreign = CallToolResult.model_validate({"content": [{"type": "text", "text": BIG}]})
    assert from_call_tool_result(foreign).content == CUT
    assert from_call_tool_result(foreign, bounds=None).content == BIG


def test_the_bounds_example_of_the_frameworks_index_runs() -> None:
    from framework_docs import run_page

    namespace = run_page("index.md")
    assert namespace["default_bounds"]() == Bounds()


# --- Google ADK (in a venv of its own: tests/adapters/adk_env.py) ---------------------------

ADK_TOOLS = """
from google.adk.agents import Agent

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.google_adk import result_tool
from toolwire.bounds import Bounds

BIG = "c" * 1_000_000
HUGE = ToolArtifact.text("dump", "a" * 1_000_000)
SMALL = ToolArtifact.text("note", "kept")
BAD = "ok \\ud800 and caf" + b"\\xe9".decode("utf-8", "surrogateescape")


@result_tool
def big(q: str) -> ToolResult:
    return ToolResult.text(BIG, HUGE)


@result_tool(bounds=None)
def off(q: str) -> ToolResult:
    return ToolResult.text(BIG, HUGE)


@result_tool(bounds=Bounds(content=2_000_000, policy="drop"))
async def drop(q: str) -> ToolResult:
    return ToolResult.text(BIG, HUGE, SMALL)


@result_tool
def bad(q: str) -> ToolResult:
    return ToolResult.text(BAD, SMALL)


agent = Agent(name="bounds", model="unused", tools=[big, off, drop, bad])
"""


def test_the_seam_bounds_through_adk(adk_python: Path, tmp_path: Path) -> None:
    from adk_env import drive

    (tmp_path / "bounds_agent.py").write_text(ADK_TOOLS, encoding="utf-8")
    calls = [{"tool": kind, "args": {"q": "x"}} for kind in KINDS]
    seen: Seen = {}
    for kind, record in zip(KINDS, drive(adk_python, tmp_path, "bounds_agent", calls), strict=True):
        assert record["error"] is None, record["error"]
        ((key, text),) = record["response"]["response"].items()
        assert key == "result"
        artifacts = tuple(ToolArtifact(**a["artifact"]) for a in record["artifacts"])
        seen[kind] = (text, artifacts)
    check(seen)


def test_a_bad_bounds_option_is_a_one_line_type_error_in_adk(adk_python: Path) -> None:
    from adk_env import run_python

    code = (
        "from toolwire.adapters.google_adk import result_tool\n"
        "try:\n    result_tool(len, bounds=50_000)\n"
        "except TypeError as error:\n    print(error)\n"
    )
    done = run_python(adk_python, "-c", code)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert message.startswith("result_tool(): bounds must be a toolwire.bounds.Bounds"), message
    assert "\n" not in message and "got int" in message
