"""toolwire.adapters.llamaindex through LlamaIndex's real call paths."""

from __future__ import annotations

import asyncio
import json
import pickle
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

pytest.importorskip("llama_index.core")

from framework_docs import Block, assert_extra_installed, install_extras, python_blocks, run_block
from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool, ToolOutput
from llama_index.core.tools.tool_spec.base import BaseToolSpec
from pydantic import BaseModel
from workflows.context.serializers import JsonSerializer

from toolwire import ToolResult
from toolwire.adapters._common import RunOnlyArtifacts
from toolwire.adapters.llamaindex import ResultFunctionTool, ResultToolSpec, to_tool_output
from toolwire.result import ToolArtifact

MARKER = "ARTIFACT-PAYLOAD-41c9"


def artifacts() -> tuple[ToolArtifact, ...]:
    return (
        ToolArtifact.table("rows", ["id", "secret"], [["1", MARKER]]),
        ToolArtifact.text("raw", f"raw dump {MARKER}"),
    )


def lookup(q: str, limit: int = 2) -> ToolResult:
    """Look up customer records.

    Args:
        q (str): Who to look for.
        limit (int): At most this many records.
    """
    if q == "missing":
        return ToolResult.error(f"no record matches {q!r}")
    return ToolResult.text(f"{limit} records for {q!r}", *artifacts())


def lookup_as_str(q: str, limit: int = 2) -> str:
    """Look up customer records.

    Args:
        q (str): Who to look for.
        limit (int): At most this many records.
    """
    raise AssertionError("only its metadata is used")


async def fetch(url: str) -> ToolResult:
    """Fetch a page."""
    await asyncio.sleep(0)
    if not url:
        return ToolResult.error("no url")
    return ToolResult.text(f"fetched {url}", *artifacts())


def assert_success(output: ToolOutput, content: str) -> None:
    assert output.content == content
    assert str(output) == content
    assert [b.text for b in output.blocks] == [content]  # type: ignore[union-attr]
    assert output.is_error is False
    assert isinstance(output.raw_output, RunOnlyArtifacts)
    assert output.raw_output.records() == [a.to_dict() for a in artifacts()]
    assert MARKER not in output.model_dump_json()


# --- FunctionTool.call / acall -----------------------------------------------------------


def test_the_model_sees_what_from_defaults_gives_a_str_function() -> None:
    ours = ResultFunctionTool.from_defaults(lookup)
    theirs = FunctionTool.from_defaults(lookup_as_str, name="lookup")
    assert ours.metadata.description == theirs.metadata.description
    assert ours.metadata.to_openai_tool() == theirs.metadata.to_openai_tool()
    assert "ToolResult" not in json.dumps(ours.metadata.to_openai_tool())


def test_call_content_is_exact_and_artifacts_are_raw_output() -> None:
    tool = ResultFunctionTool.from_defaults(lookup)
    assert_success(tool.call(q="ada"), "2 records for 'ada'")
    assert_success(tool(q="ada", limit=3), "3 records for 'ada'")


def test_an_error_result_is_is_error() -> None:
    output = ResultFunctionTool.from_defaults(lookup).call(q="missing")
    assert output.is_error is True
    assert output.content == "no record matches 'missing'"
    assert output.raw_output == "no record matches 'missing'"  # no artifacts: the content


def test_acall_on_sync_and_async_functions() -> None:
    sync_tool = ResultFunctionTool.from_defaults(lookup)
    assert_success(asyncio.run(sync_tool.acall(q="bo")), "2 records for 'bo'")
    async_tool = ResultFunctionTool.from_defaults(async_fn=fetch)
    assert_success(asyncio.run(async_tool.acall(url="u")), "fetched u")
    assert_success(async_tool.call(url="u"), "fetched u")
    error = asyncio.run(ResultFunctionTool.from_defaults(fetch).acall(url=""))
    assert (error.is_error, error.content) == (True, "no url")


def test_a_callback_still_sees_the_result_and_may_override_the_content() -> None:
    seen: list[object] = []

    def callback(raw: object) -> str:
        seen.append(raw)
        return "overridden"

    output = ResultFunctionTool.from_defaults(lookup, callback=callback).call(q="x")
    assert isinstance(seen[0], ToolResult)
    assert output.content == "overridden"
    assert isinstance(output.raw_output, RunOnlyArtifacts)


def test_a_function_returning_something_else_fails_loudly_with_its_name() -> None:
    def sloppy() -> Any:
        """Returns a dict."""
        return {"rows": [MARKER]}

    with pytest.raises(TypeError, match="LlamaIndex tool 'sloppy' returned dict"):
        ResultFunctionTool.from_defaults(sloppy).call()


def test_a_plain_str_is_accepted_while_migrating() -> None:
    def legacy(q: str) -> str:
        """Old tool."""
        return f"legacy {q}"

    output = ResultFunctionTool.from_defaults(legacy).call(q="g")
    assert (output.content, output.raw_output, output.is_error) == ("legacy g", "legacy g", False)


def test_to_tool_output_for_hand_written_tools() -> None:
    output = to_tool_output(ToolResult.text("ok", *artifacts()), "mine", {"q": 1})
    assert_success(output, "ok")
    assert to_tool_output(ToolResult.error("bad"), "mine").is_error is True


def test_the_runtime_is_not_weakened() -> None:
    result = ToolResult.text("x", *artifacts())
    with pytest.raises(TypeError, match="no string form"):
        str(result)
    output = ResultFunctionTool.from_defaults(lookup).call(q="x")
    assert isinstance(output.raw_output, RunOnlyArtifacts)
    assert pickle.loads(pickle.dumps(output)).raw_output == ()


# --- a FunctionAgent with a scripted model --------------------------------------------------


class Script:
    """The model's side of the conversation: two tool calls, then an answer; keeps each prompt."""

    def __init__(self) -> None:
        self.prompts: list[list[ChatMessage]] = []
        self.tools: list[dict[str, Any]] = []
        self.handler: Any = None
        self.snapshot = ""

    def __call__(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.prompts.append(list(messages))
        self.tools = [t.metadata.to_openai_tool() for t in kwargs.get("tools") or []]
        if any(m.role == MessageRole.TOOL for m in messages):
            # Mid-run, the context holds this run's tool calls and their outputs.
            state = self.handler.ctx.to_dict(serializer=JsonSerializer())
            self.snapshot = json.dumps(state)
            return ChatMessage(role=MessageRole.ASSISTANT, content="done")
        calls = [
            ToolCallBlock(tool_call_id="call-ok", tool_name="lookup", tool_kwargs={"q": "ada"}),
            ToolCallBlock(tool_call_id="call-err", tool_name="fetch", tool_kwargs={"url": ""}),
        ]
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=list(calls))


async def run_agent(script: Script) -> tuple[Any, list[ToolCallResult]]:
    agent = FunctionAgent(
        tools=[ResultFunctionTool.from_defaults(lookup), ResultFunctionTool.from_defaults(fetch)],
        llm=MockFunctionCallingLLM(response_generator=script),
    )
    handler = script.handler = agent.run(user_msg="find ada")
    results = [ev async for ev in handler.stream_events() if isinstance(ev, ToolCallResult)]
    return await handler, results


def test_function_agent_reads_content_only_and_keeps_errors() -> None:
    script = Script()
    answer, results = asyncio.run(run_agent(script))
    assert str(answer) == "done"

    by_id = {r.tool_id: r.tool_output for r in results}
    assert_success(by_id["call-ok"], "2 records for 'ada'")
    assert (by_id["call-err"].is_error, by_id["call-err"].content) == (True, "no url")

    # The model read exactly the contents, and no byte of an artifact.
    tool_messages = [m for m in script.prompts[-1] if m.role == MessageRole.TOOL]
    # the two tool calls run concurrently: their results arrive in either order
    assert sorted(m.content for m in tool_messages) == ["2 records for 'ada'", "no url"]
    for prompt in script.prompts:
        assert MARKER not in json.dumps([m.model_dump(mode="json") for m in prompt])
    assert script.tools == [
        FunctionTool.from_defaults(lookup_as_str, name="lookup").metadata.to_openai_tool(),
        ResultFunctionTool.from_defaults(fetch).metadata.to_openai_tool(),
    ]

    # The workflow's serialised context (what a resumed run reads) holds the stub only,
    # and so does the agent's output, which lists the run's tool calls.
    assert '"current_tool_calls"' in script.snapshot
    assert "toolwire_run_only_artifacts" in script.snapshot
    assert MARKER not in script.snapshot
    assert len(answer.tool_calls) == 2
    assert MARKER not in answer.model_dump_json()


def test_a_result_without_artifacts_is_stored_as_the_str_was() -> None:
    def weather(city: str) -> str:
        """Look a city up."""
        return f"sunny in {city}"

    def migrated(city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"sunny in {city}")

    async def run(tool: FunctionTool) -> tuple[Any, Any, Any]:
        snapshots: list[Any] = []

        def script(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
            if any(m.role == MessageRole.TOOL for m in messages):
                snapshots.append(handler.ctx.to_dict(serializer=JsonSerializer()))
                return ChatMessage(role=MessageRole.ASSISTANT, content="done")
            ask = ToolCallBlock(
                tool_call_id="c1", tool_name="weather", tool_kwargs={"city": "Oslo"}
            )
            return ChatMessage(role=MessageRole.ASSISTANT, blocks=[ask])

        agent = FunctionAgent(tools=[tool], llm=MockFunctionCallingLLM(response_generator=script))
        handler = agent.run(user_msg="go")
        [result] = [ev async for ev in handler.stream_events() if isinstance(ev, ToolCallResult)]
        answer = await handler
        # The context's own state (memory, scratchpad, the run's tool calls); its workers'
        # queues hold timestamps, which differ from run to run and are not compared.
        stored = snapshots[0]["state"]["state_data"]
        return result.tool_output, stored, answer.model_dump(mode="json")

    plain = asyncio.run(run(FunctionTool.from_defaults(weather)))
    after = asyncio.run(run(ResultFunctionTool.from_defaults(migrated, name="weather")))
    assert plain[0].raw_output == after[0].raw_output == "sunny in Oslo"
    assert after[0].model_dump() == plain[0].model_dump()
    assert '"current_tool_calls"' in json.dumps(plain[1])
    assert after[1] == plain[1]
    assert after[2] == plain[2]


# --- BaseToolSpec subclasses -----------------------------------------------------------


class RecordsSpec(ResultToolSpec):
    """Spec functions as a string, an async string and a (sync, async) pair."""

    spec_functions: ClassVar[list[Any]] = ["lookup", "fetch", ("count", "acount")]

    def lookup(self, q: str, limit: int = 2) -> ToolResult:
        """Look up customer records.

        Args:
            q (str): Who to look for.
            limit (int): At most this many records.
        """
        return lookup(q, limit)

    async def fetch(self, url: str) -> ToolResult:
        """Fetch a page."""
        return await fetch(url)

    def count(self, table: str) -> ToolResult:
        """Count the rows of a table."""
        if table == "nope":
            return ToolResult.error(f"no table {table!r}")
        return ToolResult.text(f"sync count of {table}", *artifacts())

    async def acount(self, table: str) -> ToolResult:
        """Count the rows of a table."""
        await asyncio.sleep(0)
        if table == "nope":
            return ToolResult.error(f"no table {table!r}")
        return ToolResult.text(f"async count of {table}", *artifacts())


class RecordsSpecAsStr(BaseToolSpec):
    """The same spec before the migration: what the model saw then."""

    spec_functions: ClassVar[list[Any]] = ["lookup", "fetch", ("count", "acount")]

    def lookup(self, q: str, limit: int = 2) -> str:
        """Look up customer records.

        Args:
            q (str): Who to look for.
            limit (int): At most this many records.
        """
        raise AssertionError("only its metadata is used")

    async def fetch(self, url: str) -> str:
        """Fetch a page."""
        raise AssertionError("only its metadata is used")

    def count(self, table: str) -> str:
        """Count the rows of a table."""
        raise AssertionError("only its metadata is used")

    async def acount(self, table: str) -> str:
        """Count the rows of a table."""
        raise AssertionError("only its metadata is used")


def openai_tools(tools: Sequence[Any]) -> list[dict[str, Any]]:
    return [t.metadata.to_openai_tool() for t in tools]


def test_a_spec_gives_the_model_the_description_of_its_str_methods() -> None:
    ours = RecordsSpec().to_tool_list()
    theirs = RecordsSpecAsStr().to_tool_list()
    assert [t.metadata.description for t in ours] == [t.metadata.description for t in theirs]
    assert openai_tools(ours) == openai_tools(theirs)
    assert "ToolResult" not in json.dumps(openai_tools(ours))
    assert all(isinstance(t, ResultFunctionTool) for t in ours)
    assert openai_tools(asyncio.run(RecordsSpec().to_tool_list_async())) == openai_tools(theirs)


def test_spec_tools_call_and_acall() -> None:
    lookup_tool, fetch_tool, count_tool = RecordsSpec().to_tool_list()
    assert_success(lookup_tool.call(q="ada"), "2 records for 'ada'")
    assert_success(fetch_tool.call(url="u"), "fetched u")  # async only: run for a sync caller
    assert_success(asyncio.run(fetch_tool.acall(url="u")), "fetched u")
    # The pair: `call` runs the sync method, `acall` the async one.
    assert_success(count_tool.call(table="t"), "sync count of t")
    assert_success(asyncio.run(count_tool.acall(table="t")), "async count of t")
    for output in (count_tool.call(table="nope"), asyncio.run(count_tool.acall(table="nope"))):
        assert (output.is_error, output.content) == (True, "no table 'nope'")
        assert output.raw_output == "no table 'nope'"


def test_a_spec_keeps_metadata_it_is_given() -> None:
    mapping = {"lookup": RecordsSpecAsStr().to_tool_list(["fetch"])[0].metadata}
    (tool,) = RecordsSpec().to_tool_list(["lookup"], func_to_metadata_mapping=mapping)
    assert tool.metadata is mapping["lookup"]
    assert_success(tool.call(q="ada"), "2 records for 'ada'")


class MixedSpec(ResultToolSpec):
    """A spec half migrated: only its `-> ToolResult` functions are ResultFunctionTools."""

    spec_functions: ClassVar[list[Any]] = ["lookup", "legacy", "rows"]

    def lookup(self, q: str) -> ToolResult:
        """Look up."""
        return ToolResult.text(f"found {q}", *artifacts())

    def legacy(self, q: str) -> str:
        """Not migrated yet."""
        return f"legacy {q}"

    def rows(self, q: str) -> list[dict[str, str]]:
        """Rows, as LlamaIndex shows them."""
        return [{"q": q}]


class MixedSpecAsBefore(BaseToolSpec):
    spec_functions: ClassVar[list[Any]] = ["lookup", "legacy", "rows"]

    def lookup(self, q: str) -> str:
        """Look up."""
        raise AssertionError("only its metadata is used")

    legacy = MixedSpec.legacy
    rows = MixedSpec.rows


def test_a_spec_wraps_only_the_functions_that_return_a_result() -> None:
    lookup_tool, legacy_tool, rows_tool = MixedSpec().to_tool_list()
    before = MixedSpecAsBefore().to_tool_list()
    assert openai_tools([lookup_tool, legacy_tool, rows_tool]) == openai_tools(before)
    assert isinstance(lookup_tool, ResultFunctionTool)
    assert not isinstance(legacy_tool, ResultFunctionTool)
    assert not isinstance(rows_tool, ResultFunctionTool)
    assert_success(lookup_tool.call(q="x"), "found x")
    for ours, theirs in zip((legacy_tool, rows_tool), before[1:], strict=True):
        got, want = ours.call(q="y"), theirs.call(q="y")
        assert (got.content, got.raw_output, got.is_error) == (
            want.content,
            want.raw_output,
            want.is_error,
        )


class Query(BaseModel):
    q: str


class LegacySchemaSpec(ResultToolSpec):
    """An older spec: the schema comes from `get_fn_schema_from_fn_name`."""

    spec_functions: ClassVar[list[Any]] = ["lookup"]

    def get_fn_schema_from_fn_name(
        self, fn_name: str, spec_functions: Any = None
    ) -> type[BaseModel] | None:
        return Query

    def lookup(self, q: str) -> ToolResult:
        """Look up."""
        return ToolResult.text(f"found {q}", *artifacts())


class LegacySchemaSpecAsStr(BaseToolSpec):
    spec_functions: ClassVar[list[Any]] = ["lookup"]

    def get_fn_schema_from_fn_name(
        self, fn_name: str, spec_functions: Any = None
    ) -> type[BaseModel] | None:
        return Query

    def lookup(self, q: str) -> str:
        """Look up."""
        raise AssertionError("only its metadata is used")


def test_a_spec_with_its_own_schema_keeps_the_str_description() -> None:
    (ours,) = LegacySchemaSpec().to_tool_list()
    (theirs,) = LegacySchemaSpecAsStr().to_tool_list()
    assert ours.metadata.description == theirs.metadata.description
    assert "ToolResult" not in ours.metadata.description
    assert ours.metadata.fn_schema is Query
    assert_success(ours.call(q="x"), "found x")


def test_function_agent_runs_spec_tools() -> None:
    script = Script()

    async def run() -> tuple[Any, list[ToolCallResult]]:
        agent = FunctionAgent(
            tools=RecordsSpec().to_tool_list()[:2],
            llm=MockFunctionCallingLLM(response_generator=script),
        )
        handler = script.handler = agent.run(user_msg="find ada")
        results = [ev async for ev in handler.stream_events() if isinstance(ev, ToolCallResult)]
        return await handler, results

    answer, results = asyncio.run(run())
    assert str(answer) == "done"
    by_id = {r.tool_id: r.tool_output for r in results}
    assert_success(by_id["call-ok"], "2 records for 'ada'")
    assert (by_id["call-err"].is_error, by_id["call-err"].content) == (True, "no url")
    tool_messages = [m for m in script.prompts[-1] if m.role == MessageRole.TOOL]
    assert sorted(m.content for m in tool_messages) == ["2 records for 'ada'", "no url"]
    for prompt in script.prompts:
        assert MARKER not in json.dumps([m.model_dump(mode="json") for m in prompt])
    assert script.tools == openai_tools(RecordsSpecAsStr().to_tool_list()[:2])
    assert MARKER not in script.snapshot
    assert MARKER not in answer.model_dump_json()


# --- packaging and docs -------------------------------------------------------------------


BLOCKS = python_blocks("llamaindex.md")


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line-{b.line}" for b in BLOCKS])
def test_docs_page_block_runs(block: Block) -> None:
    run_block("llamaindex.md", block)


def test_docs_page_has_blocks() -> None:
    assert len(BLOCKS) >= 2


def test_the_install_line_names_the_extra_this_environment_satisfies() -> None:
    assert install_extras("llamaindex.md") == ["llamaindex"]
    assert_extra_installed("llamaindex")
