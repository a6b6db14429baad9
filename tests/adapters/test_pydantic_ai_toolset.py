"""`ResultToolset`: a custom pydantic-ai toolset (`AbstractToolset`) whose `call_tool`
returns a `ToolResult`, run by `Agent.run_sync` with a FunctionModel.

The toolset below is codemods/tool-returns.md's `Clock` example after `toolwire migrate`;
its unmigrated twin answers with a str. The model must read the same text from both, an
error result must be a failed tool return (as `@result_tool`'s), and an artifact must
stay in the part's metadata, never in what the model is sent.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool
from pydantic_core import SchemaValidator, core_schema

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.pydantic_ai import ArtifactMetadata, ResultToolset
from toolwire.bounds import Bounds

MARKER = "ARTIFACT-ONLY-51c2"
SCHEMA = {"type": "object", "properties": {}}


def _tools(toolset: AbstractToolset[Any]) -> dict[str, ToolsetTool[Any]]:
    definition = ToolDefinition(name="now", description="The time.", parameters_json_schema=SCHEMA)
    validator = SchemaValidator(core_schema.dict_schema())
    return {"now": ToolsetTool(toolset=toolset, tool_def=definition, max_retries=0,
                               args_validator=validator)}  # fmt: skip


class PlainClock(AbstractToolset[Any]):
    @property
    def id(self) -> str | None:
        return "clock"

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        return _tools(self)

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> str:
        return "12:00" if ctx.deps != "broken" else "Error: the clock stopped"


class Clock(ResultToolset, AbstractToolset[Any]):
    @property
    def id(self) -> str | None:
        return "clock"

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        return _tools(self)

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> ToolResult:
        if ctx.deps == "broken":
            return ToolResult.error("Error: the clock stopped")
        if ctx.deps == "plain":
            return "12:00"  # type: ignore[return-value]  # a tool not migrated yet
        return ToolResult.text("12:00", ToolArtifact.text("source", f"{MARKER} ntp"))


def _run(toolset: AbstractToolset[Any], deps: str) -> tuple[ToolReturnPart, list[str]]:
    seen: list[list[ModelMessage]] = []

    def script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        if len(seen) == 1:
            return ModelResponse(parts=[ToolCallPart("now", {}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    agent: Agent[str, str] = Agent(FunctionModel(script), deps_type=str, toolsets=[toolset])
    assert agent.run_sync("what time is it?", deps=deps).output == "done"
    [part] = [
        p
        for m in seen[1]
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]
    return part, [json.dumps(p.model_response_object()) for p in [part]]


def test_the_model_reads_the_same_text_and_the_artifact_is_metadata() -> None:
    plain, plain_sent = _run(PlainClock(), "ok")
    part, sent = _run(Clock(), "ok")
    assert part.model_response_str() == plain.model_response_str() == "12:00"
    assert sent == plain_sent and MARKER not in sent[0]
    assert isinstance(part.metadata, ArtifactMetadata)
    assert part.metadata.artifacts == (ToolArtifact.text("source", f"{MARKER} ntp"),)
    assert plain.metadata is None


def test_an_error_result_is_a_failed_tool_return_with_the_same_text() -> None:
    plain, _ = _run(PlainClock(), "broken")
    part, _ = _run(Clock(), "broken")
    assert (plain.outcome, part.outcome) == ("success", "failed")
    text = "Error: the clock stopped"
    assert part.model_response_str(wrap_if_error=False) == plain.model_response_str() == text
    # as for `@result_tool`: a provider without an error flag gets pydantic-ai's wrapping
    assert json.loads(part.model_response_str()) == {"error": text}


def test_any_other_value_is_passed_on_unchanged() -> None:
    part, _ = _run(Clock(), "plain")
    assert (part.content, part.metadata, part.outcome) == ("12:00", None, "success")


def test_a_large_result_is_bounded_by_default_and_by_the_class_attribute() -> None:
    class Big(Clock):
        async def call_tool(
            self,
            name: str,
            tool_args: dict[str, Any],
            ctx: RunContext[Any],
            tool: ToolsetTool[Any],
        ) -> ToolResult:
            return ToolResult.text("x" * 1_000_000)

    class Small(Big):
        bounds = Bounds(content=1_000, artifacts=0)

    class Off(Big):
        bounds = None

    default, _ = _run(Big(), "ok")
    small, _ = _run(Small(), "ok")
    off, _ = _run(Off(), "ok")
    assert len(off.model_response_str()) == 1_000_000
    assert len(small.model_response_str().encode()) <= 1_000
    assert 1_000 < len(default.model_response_str().encode()) <= 50_000
