"""toolwire.adapters.crewai through CrewAI's real agent loop, with a scripted LLM.

Both of CrewAI's tool paths run: the ReAct text loop (`execute_tool_and_check_finality`
-> `ToolUsage`) and native function calling (`AgentExecutor._execute_single_native_tool_call`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from framework_docs import (
    assert_extra_installed,
    extra_requirements,
    install_extras,
    page_text,
    python_blocks,
    run_page,
)

pytest.importorskip("crewai")

from ca_scripted import ScriptedLLM, call, final
from crewai import Agent, Crew, Task
from crewai.events.event_bus import crewai_event_bus
from crewai.events.types.tool_usage_events import ToolUsageFinishedEvent
from crewai.hooks import (
    register_after_tool_call_hook,
    unregister_after_tool_call_hook,
)
from crewai.hooks.tool_hooks import ToolCallHookContext
from crewai.state.checkpoint_config import CheckpointConfig
from crewai.tools import BaseTool
from crewai.tools.tool_failure import ToolExecutionFailedError, ToolFailureReason

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.crewai import ResultTool, result_of, tool

MARK = "ARTIFACT-PAYLOAD-7f3a9c"
REPO = Path(__file__).resolve().parents[2]


class CustomerLookup(ResultTool):
    name: str = "customer_lookup"
    description: str = "Look up a customer by name."

    def _run(self, customer: str) -> ToolResult:
        if customer == "nobody":
            return ToolResult.error(f"no customer named {customer}")
        return ToolResult.text(
            f"{customer}: 2 open orders",
            ToolArtifact.table("orders", ["id", "note"], [["o-1", MARK], ["o-2", "ok"]]),
        )


@tool("order_notes")
def order_notes(order_id: str) -> ToolResult:
    """The notes on an order."""
    return ToolResult.text(f"{order_id} has 1 note", ToolArtifact.text("note", MARK + "-fn"))


@pytest.fixture
def raw_results() -> Iterator[list[ToolResult | None]]:
    """What an after-tool-call hook sees, through `result_of`."""
    seen: list[ToolResult | None] = []

    def hook(context: ToolCallHookContext) -> None:
        seen.append(result_of(context))

    register_after_tool_call_hook(hook)
    yield seen
    unregister_after_tool_call_hook(hook)


def run_agent(llm: ScriptedLLM, tools: list[Any], **agent_options: Any) -> tuple[str, Agent]:
    agent = Agent(
        role="support", goal="answer", backstory="b", llm=llm, tools=tools, **agent_options
    )
    task = Task(description="How is ada doing?", expected_output="a sentence", agent=agent)
    return str(agent.execute_task(task)), agent


def observations(llm: ScriptedLLM) -> list[str]:
    """The tool results the model read, as CrewAI put them into its messages."""
    texts = []
    for message in llm.last_messages():
        if message["role"] == "tool":
            texts.append(message["content"])
        elif message["role"] == "assistant" and "\nObservation: " in (message["content"] or ""):
            texts.append(message["content"].split("\nObservation: ", 1)[1])
    return texts


def artifact_data(result: ToolResult | None) -> str:
    assert result is not None
    return json.dumps([artifact.to_dict() for artifact in result.artifacts])


@pytest.mark.parametrize("native", [False, True], ids=["react", "native"])
def test_model_reads_content_and_the_hook_gets_the_artifacts(
    native: bool, raw_results: list[ToolResult | None]
) -> None:
    llm = ScriptedLLM(
        model="scripted",
        native=native,
        replies=[
            call(native, 1, "customer_lookup", {"customer": "ada"}),
            call(native, 2, "order_notes", {"order_id": "o-1"}),
            final(native, "fine"),
        ],
    )
    answer, _ = run_agent(llm, [CustomerLookup(), order_notes])
    assert answer == "fine"
    assert observations(llm) == ["ada: 2 open orders", "o-1 has 1 note"]
    for request in llm.requests:
        assert MARK not in request
    assert [r.content if r else None for r in raw_results] == [
        "ada: 2 open orders",
        "o-1 has 1 note",
    ]
    assert MARK in artifact_data(raw_results[0])
    assert MARK + "-fn" in artifact_data(raw_results[1])


@pytest.mark.parametrize("native", [False, True], ids=["react", "native"])
def test_an_error_result_is_a_crewai_tool_failure(
    native: bool, raw_results: list[ToolResult | None]
) -> None:
    llm = ScriptedLLM(
        model="scripted",
        native=native,
        replies=[call(native, 1, "customer_lookup", {"customer": "nobody"}), final(native, "x")],
    )
    _, agent = run_agent(llm, [CustomerLookup()])
    assert observations(llm) == ["no customer named nobody"]
    [record] = agent.last_tool_failures
    assert record.tool_name == "customer_lookup"
    assert record.failure.message == "no customer named nobody"
    assert record.failure.reason is ToolFailureReason.TOOL_REPORTED
    [seen] = raw_results
    assert seen == ToolResult.error("no customer named nobody")


@pytest.mark.parametrize("native", [False, True], ids=["react", "native"])
def test_the_failure_policy_applies_to_an_error_result(native: bool) -> None:
    llm = ScriptedLLM(
        model="scripted",
        native=native,
        replies=[call(native, 1, "customer_lookup", {"customer": "nobody"}), final(native, "x")],
    )
    with pytest.raises(ToolExecutionFailedError, match="no customer named nobody"):
        run_agent(llm, [CustomerLookup(tool_failure_policy="raise")])


def test_crewai_events_carry_the_content_only() -> None:
    outputs: list[Any] = []
    with crewai_event_bus.scoped_handlers():

        @crewai_event_bus.on(ToolUsageFinishedEvent)
        def finished(source: Any, event: ToolUsageFinishedEvent) -> None:
            outputs.append(event.output)

        llm = ScriptedLLM(
            model="scripted",
            native=True,
            replies=[call(True, 1, "customer_lookup", {"customer": "ada"}), "done"],
        )
        run_agent(llm, [CustomerLookup()])
        crewai_event_bus.flush()
    assert outputs == ["ada: 2 open orders"]


def test_a_crew_checkpoint_holds_the_content_and_no_artifact(tmp_path: Path) -> None:
    llm = ScriptedLLM(
        model="scripted",
        native=True,
        replies=[call(True, 1, "customer_lookup", {"customer": "ada"}), "done"],
    )
    agent = Agent(role="support", goal="answer", backstory="b", llm=llm, tools=[CustomerLookup()])
    task = Task(description="How is ada doing?", expected_output="a sentence", agent=agent)
    checkpoint = CheckpointConfig(
        location=str(tmp_path), on_events=["tool_usage_finished", "task_completed"]
    )
    assert str(Crew(agents=[agent], tasks=[task], checkpoint=checkpoint).kickoff()) == "done"
    written = [p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file()]
    assert written
    assert any("ada: 2 open orders" in text for text in written)
    assert not any(MARK in text for text in written)


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
# CrewAI numbers the events it emits process-wide: where a run starts depends on what ran
# before it, like an id.
_COUNTERS = {"emission_sequence"}
# The tool's own definition, not its result: the class (and so its schema's title) and
# the `bounds` field a `ResultTool` adds.
_TOOL_DEFINITION = {"tool_type", "bounds", "title"}


def _run_independent(value: Any) -> Any:
    """A checkpoint without what differs from run to run: ids, times, event numbers, its
    own directory, and the tool's class."""
    if isinstance(value, dict):
        return {
            f"<id {n}>" if _UUID.match(key) else key: (
                "<dir>" if key == "location" else _run_independent(item)
            )
            for n, (key, item) in enumerate(value.items())
            if key not in _TOOL_DEFINITION | _COUNTERS
        }
    if isinstance(value, list):
        return [_run_independent(item) for item in value]
    if isinstance(value, str) and (_UUID.match(value) or _TIME.match(value)):
        return "<id or time>"
    return value


def test_a_result_without_artifacts_is_stored_as_the_str_was(tmp_path: Path) -> None:
    class Weather(BaseTool):
        name: str = "weather"
        description: str = "Look a city up."

        def _run(self, city: str) -> str:
            return f"sunny in {city}"

    class Migrated(ResultTool):
        name: str = "weather"
        description: str = "Look a city up."

        def _run(self, city: str) -> ToolResult:
            return ToolResult.text(f"sunny in {city}")

    stored, sent = [], []
    for each in (Weather(), Migrated()):
        where = tmp_path / type(each).__name__
        llm = ScriptedLLM(
            model="scripted",
            native=True,
            replies=[call(True, 1, "weather", {"city": "Oslo"}), "done"],
        )
        agent = Agent(role="r", goal="g", backstory="b", llm=llm, tools=[each])
        task = Task(description="Weather in Oslo?", expected_output="a sentence", agent=agent)
        checkpoint = CheckpointConfig(location=str(where), on_events=["task_completed"])
        assert str(Crew(agents=[agent], tasks=[task], checkpoint=checkpoint).kickoff()) == "done"
        [written] = [p for p in where.rglob("*") if p.is_file()]
        assert "sunny in Oslo" in written.read_text()
        stored.append(_run_independent(json.loads(written.read_text())))
        sent.append(llm.requests)
    assert stored[1] == stored[0]
    assert sent[1] == sent[0]


def test_a_tool_that_returns_something_else_fails_without_reaching_the_model() -> None:
    class Leaky(ResultTool):
        name: str = "leaky"
        description: str = "Returns a dict by mistake."

        def _run(self, customer: str) -> Any:
            return {"rows": [MARK]}

    llm = ScriptedLLM(
        model="scripted",
        native=True,
        replies=[call(True, 1, "leaky", {"customer": "ada"}), "done"],
    )
    _, agent = run_agent(llm, [Leaky()])
    [seen] = observations(llm)
    assert "returned dict, not a ToolResult" in seen
    for request in llm.requests:
        assert MARK not in request
    [record] = agent.last_tool_failures
    assert record.failure.reason is ToolFailureReason.EXCEPTION


def test_a_plain_string_still_works_for_a_tool_not_migrated_yet() -> None:
    class Legacy(ResultTool):
        name: str = "legacy"
        description: str = "Still returns str."

        def _run(self, customer: str) -> str:
            return f"hello {customer}"

    assert Legacy().format_output_for_agent(Legacy().run(customer="ada")) == "hello ada"


def test_the_tool_keeps_crewai_schema_and_direct_use() -> None:
    lookup = CustomerLookup()
    assert list(lookup.args_schema.model_json_schema()["properties"]) == ["customer"]
    assert list(order_notes.args_schema.model_json_schema()["properties"]) == ["order_id"]
    raw = lookup.run(customer="ada")
    assert isinstance(raw, ToolResult)
    assert lookup.format_output_for_agent(raw) == "ada: 2 open orders"
    structured = lookup.to_structured_tool()
    assert structured.format_output_for_agent(structured.invoke({"customer": "ada"})) == (
        "ada: 2 open orders"
    )
    with pytest.raises(TypeError, match="no string form"):
        str(raw)


def test_an_async_run_is_mapped_too() -> None:
    import asyncio

    class Slow(ResultTool):
        name: str = "slow"
        description: str = "Async."

        def _run(self, customer: str) -> ToolResult:
            return ToolResult.text("sync")

        async def _arun(self, customer: str) -> ToolResult:
            return ToolResult.error("down")

    failure = asyncio.run(Slow().arun(customer="a"))
    assert Slow().format_output_for_agent(failure) == "down"


def test_the_docs_page_runs() -> None:
    assert len(python_blocks("crewai.md")) >= 3
    run_page("crewai.md")


def test_the_install_line_names_the_extra_and_its_pin_is_what_runs_here() -> None:
    assert install_extras("crewai.md") == ["crewai"]
    assert_extra_installed("crewai")
    assert all(str(r) in page_text("crewai.md") for r in extra_requirements("crewai"))
