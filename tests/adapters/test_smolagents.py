"""toolwire.adapters.smolagents through smolagents' agents, with a scripted model."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from framework_docs import (
    assert_extra_installed,
    extra_requirements,
    install_extras,
    page_text,
    python_blocks,
)

pytest.importorskip("smolagents")

from sa_scripted import ScriptedModel, call
from smolagents import CodeAgent, Tool, ToolCallingAgent
from smolagents import tool as smolagents_tool
from smolagents.agent_types import AgentText
from smolagents.agents import ToolOutput
from smolagents.memory import ActionStep
from smolagents.models import ChatMessage, MessageRole
from smolagents.utils import AgentToolExecutionError

from toolwire import ToolResult
from toolwire.adapters.smolagents import ResultText, ResultTool, ToolResultError, tool

MARK = "ARTIFACT-PAYLOAD-51c0de"
REPO = Path(__file__).resolve().parents[2]


class CustomerLookup(ResultTool):  # type: ignore[misc]
    name = "customer_lookup"
    description = "Look up a customer by name."
    inputs = {"customer": {"type": "string", "description": "The customer's name."}}  # noqa: RUF012
    output_type = "string"

    def forward(self, customer: str) -> ToolResult:
        from toolwire import ToolArtifact, ToolResult

        if customer == "nobody":
            return ToolResult.error(f"no customer named {customer}")
        return ToolResult.text(
            f"{customer}: 2 open orders",
            ToolArtifact.table("orders", ["id", "note"], [["o-1", "ARTIFACT-PAYLOAD-51c0de"]]),
        )


@tool
def order_notes(order_id: str) -> ToolResult:
    """The notes on an order.

    Args:
        order_id: The order's id.
    """
    from toolwire import ToolArtifact, ToolResult

    return ToolResult.text(
        f"{order_id} has 1 note", ToolArtifact.text("note", "ARTIFACT-PAYLOAD-51c0de-fn")
    )


def run(replies: list[Any], tools: list[Tool]) -> tuple[ScriptedModel, ToolCallingAgent, list[Any]]:
    model = ScriptedModel(replies)
    agent = ToolCallingAgent(tools=tools, model=model, verbosity_level=0)
    events = list(agent.run("How is ada doing?", stream=True))
    return model, agent, events


def tool_outputs(events: list[Any]) -> dict[str, Any]:
    return {e.tool_call.name: e.output for e in events if isinstance(e, ToolOutput)}


def test_model_reads_content_and_tool_output_carries_the_artifacts() -> None:
    model, _, events = run(
        [
            call(1, "customer_lookup", {"customer": "ada"}),
            call(2, "order_notes", {"order_id": "o-1"}),
            call(3, "final_answer", {"answer": "fine"}),
        ],
        [CustomerLookup(), order_notes],
    )
    assert events[-1].output == "fine"
    assert model.tool_responses() == [
        "Observation:\nada: 2 open orders",
        "Observation:\no-1 has 1 note",
    ]
    for request in model.requests:
        assert MARK not in request
    outputs = tool_outputs(events)
    lookup, notes = outputs["customer_lookup"], outputs["order_notes"]
    assert isinstance(lookup, ResultText) and isinstance(notes, ResultText)
    assert lookup.result.content == "ada: 2 open orders"
    assert lookup.artifacts.records()[0]["data"]["rows"] == [["o-1", MARK]]
    assert notes.result.artifacts[0].data == {"text": MARK + "-fn"}


def test_memory_keeps_the_observation_text_only() -> None:
    _, agent, events = run(
        [call(1, "customer_lookup", {"customer": "ada"}), call(2, "final_answer", {"answer": "x"})],
        [CustomerLookup()],
    )
    steps = [s for s in agent.memory.steps if isinstance(s, ActionStep)]
    assert steps[0].observations == "ada: 2 open orders"
    assert MARK not in json.dumps([s.dict() for s in agent.memory.steps], default=repr)
    assert MARK not in json.dumps(agent.memory.get_full_steps(), default=repr)
    assert MARK not in repr(agent.write_memory_to_messages())
    # A pickled observation is plain text: artifacts are never resumable state.
    output = tool_outputs(events)["customer_lookup"]
    blob = pickle.dumps(output)
    assert MARK.encode() not in blob
    restored = pickle.loads(blob)
    assert restored == "ada: 2 open orders" and not isinstance(restored, ResultText)


def _untimed(value: Any) -> Any:
    """Memory without its clock readings, which differ from run to run."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in _CLOCK}
    if isinstance(value, list):
        return [_untimed(item) for item in value]
    return value


_CLOCK = {"start_time", "end_time", "duration"}


def test_a_result_without_artifacts_is_stored_as_the_str_was() -> None:
    @smolagents_tool
    def weather(city: str) -> str:
        """Look a city up.

        Args:
            city: The city.
        """
        return f"sunny in {city}"

    def migrated(city: str) -> ToolResult:
        """Look a city up.

        Args:
            city: The city.
        """
        return ToolResult.text(f"sunny in {city}")

    migrated.__name__ = "weather"
    stored, sent, observed = [], [], []
    for each in (weather, tool(migrated)):
        model, agent, events = run(
            [call(1, "weather", {"city": "Oslo"}), call(2, "final_answer", {"answer": "x"})],
            [each],
        )
        output = tool_outputs(events)["weather"]
        assert output == "sunny in Oslo"
        observed.append(type(pickle.loads(pickle.dumps(output))))
        stored.append(_untimed(json.loads(json.dumps(agent.memory.get_full_steps(), default=repr))))
        # The messages; the tool entries describe the tool object, not its result.
        sent.append([json.loads(request)["messages"] for request in model.requests])
    assert "sunny in Oslo" in json.dumps(stored[0])
    assert stored[1] == stored[0]
    assert sent[1] == sent[0]
    assert observed == [AgentText, AgentText]


def test_an_error_result_is_a_tool_execution_error() -> None:
    model, agent, _ = run(
        [
            call(1, "customer_lookup", {"customer": "nobody"}),
            call(2, "final_answer", {"answer": "x"}),
        ],
        [CustomerLookup()],
    )
    step = next(s for s in agent.memory.steps if isinstance(s, ActionStep))
    assert isinstance(step.error, AgentToolExecutionError)
    cause = step.error.__cause__
    assert isinstance(cause, ToolResultError)
    assert cause.result == ToolResult.error("no customer named nobody")
    assert step.observations is None
    [response] = model.tool_responses()
    assert "ToolResultError: no customer named nobody" in response


def test_a_tool_that_returns_something_else_fails_without_reaching_the_model() -> None:
    class Leaky(ResultTool):  # type: ignore[misc]
        name = "leaky"
        description = "Returns a dict by mistake."
        inputs = {"customer": {"type": "string", "description": "who"}}  # noqa: RUF012
        output_type = "string"

        def forward(self, customer: str) -> Any:
            return {"rows": ["ARTIFACT-PAYLOAD-51c0de"]}

    model, agent, _ = run(
        [call(1, "leaky", {"customer": "ada"}), call(2, "final_answer", {"answer": "x"})],
        [Leaky()],
    )
    step = next(s for s in agent.memory.steps if isinstance(s, ActionStep))
    assert isinstance(step.error, AgentToolExecutionError)
    assert "returned dict, not a ToolResult" in str(step.error)
    for request in model.requests:
        assert MARK not in request


# Model-written code trying every way from the value it gets to the artifacts. Each try
# prints what it reached; the interpreter only forbids dunder names.
PROBES = [
    "r.artifacts.records()",
    "r.result.audit_record()",
    "r._result.audit_record()",
    "r._artifacts",
    "getattr(r, '_result').audit_record()",
    "getattr(getattr(r, 'artifacts'), 'records')()",
    "type(r).result.fget(r).audit_record()",
    "type(r).artifacts.fget(r).records()",
    "vars(r)",
    "r.to_raw()",
    "r._value",
    "type(r).mro()",
    "customer_lookup(customer='ada', sanitize_inputs_outputs=True).result.audit_record()",
    "list(map(customer_lookup, ['ada']))[0].artifacts.records()",
    "n.result.audit_record()",
    "getattr(n, 'artifacts').records()",
    "customer_lookup.forward(customer='ada').audit_record()",
]


def code_step(source: str) -> ChatMessage:
    return ChatMessage(
        role=MessageRole.ASSISTANT, content=f"Thought: go\n<code>\n{source}\n</code>"
    )


def test_code_agent_model_code_gets_the_content_only() -> None:
    probes = "\n".join(
        f"try:\n    print('probe', {p!r}, {p})\nexcept Exception as e:\n    print('no', e)"
        for p in PROBES
    )
    actions = [
        "r = customer_lookup(customer='ada')\nn = order_notes(order_id='o-1')\n"
        "print(r, '|', n, '|', type(r) is str, type(n) is str)\n" + probes + "\nr",
        "final_answer(r)",
    ]
    model = ScriptedModel([code_step(a) for a in actions])
    agent = CodeAgent(tools=[CustomerLookup(), order_notes], model=model, verbosity_level=0)
    answer = agent.run("How is ada doing?")
    assert answer == "ada: 2 open orders"

    assert len(model.requests) == len(actions)
    for request in model.requests:
        assert MARK not in request
    assert MARK not in json.dumps([s.dict() for s in agent.memory.steps], default=repr)
    assert MARK not in json.dumps(agent.memory.get_full_steps(), default=repr)
    steps = [s for s in agent.memory.steps if isinstance(s, ActionStep)]
    observations = steps[0].observations
    assert "ada: 2 open orders | o-1 has 1 note | True True" in observations
    assert observations.count("\nno ") + observations.count("\nprobe ") == len(PROBES)
    # The code's last value, kept in memory as the step's output, is the plain text too.
    assert type(steps[0].action_output) is str
    # Called from our own code, as before, the tool still returns the artifacts.
    assert MARK in json.dumps(CustomerLookup()(customer="ada").artifacts.records())


def test_direct_calls_and_the_runtime_guard() -> None:
    text = CustomerLookup()(customer="ada")
    assert str(text) == "ada: 2 open orders" and text.to_raw() == "ada: 2 open orders"
    assert order_notes(order_id="o-2") == "o-2 has 1 note"
    assert order_notes.output_type == "string"
    with pytest.raises(TypeError, match="no string form"):
        str(text.result)
    with pytest.raises(ToolResultError, match="no customer named nobody"):
        CustomerLookup()(customer="nobody")


@pytest.mark.parametrize("made", [CustomerLookup(), order_notes], ids=["class", "decorator"])
def test_to_dict_and_save_rebuild_a_result_tool(made: ResultTool, tmp_path: Path) -> None:
    data = made.to_dict()
    assert "toolwire" in data["requirements"]
    rebuilt = Tool.from_dict(data)
    assert isinstance(rebuilt, ResultTool)
    argument = next(iter(made.inputs))
    again = rebuilt(**{argument: "ada"})
    assert isinstance(again, ResultText)
    assert again == made(**{argument: "ada"})
    assert MARK in json.dumps(again.artifacts.records())
    made.save(tmp_path)
    saved = Tool.from_code((tmp_path / "tool.py").read_text(encoding="utf-8"))
    assert saved(**{argument: "ada"}) == again
    assert "toolwire" in (tmp_path / "requirements.txt").read_text(encoding="utf-8")


def test_the_docs_page_runs(tmp_path: Path) -> None:
    blocks = python_blocks("smolagents.md")
    assert len(blocks) >= 3
    # smolagents' @tool reads a tool's source, so the page runs as a real file.
    script = tmp_path / "smolagents_page.py"
    script.write_text("\n\n".join(b.source for b in blocks), encoding="utf-8")
    subprocess.run([sys.executable, str(script)], check=True, cwd=tmp_path)


def test_the_install_line_names_the_extra_and_its_pin_is_what_runs_here() -> None:
    assert install_extras("smolagents.md") == ["smolagents"]
    assert_extra_installed("smolagents")
    assert all(str(r) in page_text("smolagents.md") for r in extra_requirements("smolagents"))
