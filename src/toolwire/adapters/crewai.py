"""CrewAI tools that return a `ToolResult` (`pip install 'toolwire[crewai]'`).

Write the tool as usual, a `BaseTool` subclass with `_run` or a function under `@tool`,
and return a `ToolResult` from it. The result is bounded where the tool returns it
(`bounds=` on `@tool`, the `bounds` field of a `ResultTool`, else
`toolwire.adapters.default_bounds()`), so every channel below holds the bounded result:

- `content` is what the agent reads: CrewAI renders a raw result through the tool's
  `format_output_for_agent`, which here is exactly `result.content`.
- `ToolResult.error(...)` reaches CrewAI as its own `ToolFailure`, so the failure policy,
  `TaskOutput.tool_failures` and `ToolFailureDetectedEvent` see a failed call; the agent
  reads the same `content`.
- the artifacts stay in the raw result, which CrewAI hands only to after-tool-call hooks
  (`ToolCallHookContext.raw_tool_result`) and to its in-memory tool cache. `result_of`
  reads it back in a hook. CrewAI persists none of it: checkpoints and events hold the
  formatted text.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, overload

from crewai.hooks.tool_hooks import ToolCallHookContext
from crewai.tools import BaseTool
from crewai.tools.base_tool import Tool
from crewai.tools.base_tool import tool as crewai_tool
from crewai.tools.tool_failure import ToolFailure
from pydantic import BaseModel, field_validator

from toolwire.adapters._common import BoundsOption, as_result, at_the_seam, check_bounds
from toolwire.result import ToolResult

__all__ = ["ResultFunctionTool", "ResultTool", "result_of", "result_tool", "tool"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _for_crewai(value: object, where: str, bounds: BoundsOption) -> ToolResult | ToolFailure:
    """The raw result CrewAI keeps: the bounded `ToolResult`, or a `ToolFailure` if it failed."""
    if isinstance(value, ToolFailure):  # CrewAI's own, e.g. a spent usage limit
        return value
    result = at_the_seam(value, where, bounds)
    if result.is_error:
        # No `code`: `as_agent_message()` would append it to what the agent reads.
        return ToolFailure(message=result.content)
    return result


def _converting(function: _F, where: str, bounds: Callable[[tuple[Any, ...]], BoundsOption]) -> _F:
    """`function` with its return value turned into the raw result CrewAI keeps.

    `bounds` gives the bounds from the call's positional arguments (a method's `self`).
    """
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def run_async(*args: Any, **kwargs: Any) -> ToolResult | ToolFailure:
            return _for_crewai(await function(*args, **kwargs), where, bounds(args))

        run_async.__toolwire_converting__ = True  # type: ignore[attr-defined]
        return run_async  # type: ignore[return-value]

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> ToolResult | ToolFailure:
        return _for_crewai(function(*args, **kwargs), where, bounds(args))

    run.__toolwire_converting__ = True  # type: ignore[attr-defined]
    return run  # type: ignore[return-value]


def _agent_text(tool: BaseTool, raw_result: Any) -> str:
    if isinstance(raw_result, ToolFailure):
        return raw_result.as_agent_message()
    return as_result(raw_result, f"CrewAI tool {tool.name!r}").content


class ResultTool(BaseTool):
    """A CrewAI `BaseTool` whose `_run` (or `_arun`) returns a `ToolResult`.

    Subclass it exactly like `BaseTool`. Every path CrewAI calls the tool by (`run`,
    `arun`, the structured tool of the ReAct loop, native function calling) goes through
    `_run`/`_arun`, so that is where the result is mapped and bounded: by the `bounds`
    field (`MyTool(bounds=Bounds(...))`; `None` is off, "default" reads `default_bounds()`).
    """

    bounds: BoundsOption = "default"

    @field_validator("bounds", mode="before")
    @classmethod
    def _check_bounds(cls, value: object) -> BoundsOption:
        # A one-line TypeError (pydantic passes it through), not a validation report.
        return check_bounds(value, f"{cls.__name__}(bounds=...)")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("_run", "_arun"):
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "__toolwire_converting__", False):
                where = f"{cls.__qualname__}.{name}()"
                setattr(cls, name, _converting(method, where, _own_bounds))

    def format_output_for_agent(self, raw_result: Any) -> str:
        """The text the agent reads: `content`, never an artifact."""
        return _agent_text(self, raw_result)


def _own_bounds(args: tuple[Any, ...]) -> BoundsOption:
    bounds: BoundsOption = args[0].bounds  # `self` of `_run`/`_arun`
    return bounds


class ResultFunctionTool(Tool[..., Any]):
    """What `toolwire.adapters.crewai.tool` makes: CrewAI's function `Tool`, mapped."""

    def format_output_for_agent(self, raw_result: Any) -> str:
        """The text the agent reads: `content`, never an artifact."""
        return _agent_text(self, raw_result)


@overload
def tool(func: Callable[..., Any], /) -> ResultFunctionTool: ...


@overload
def tool(
    name: str,
    /,
    *,
    result_schema: type[BaseModel] | None = ...,
    result_as_answer: bool = ...,
    max_usage_count: int | None = ...,
    bounds: BoundsOption = ...,
) -> Callable[[Callable[..., Any]], ResultFunctionTool]: ...


@overload
def tool(
    *,
    result_schema: type[BaseModel] | None = ...,
    result_as_answer: bool = ...,
    max_usage_count: int | None = ...,
    bounds: BoundsOption = ...,
) -> Callable[[Callable[..., Any]], ResultFunctionTool]: ...


def tool(
    *args: Callable[..., Any] | str,
    result_schema: type[BaseModel] | None = None,
    result_as_answer: bool = False,
    max_usage_count: int | None = None,
    bounds: BoundsOption = "default",
) -> ResultFunctionTool | Callable[[Callable[..., Any]], ResultFunctionTool]:
    """CrewAI's `@tool` (same arguments) for a function that returns a `ToolResult`.

    `bounds` bounds each result: a `Bounds`, `None` (off), or "default" (read at each call).
    """
    check_bounds(bounds, "tool()")

    def make(function: Callable[..., Any], name: str | None) -> ResultFunctionTool:
        where = f"CrewAI tool {name or function.__name__!r}"
        converting = _converting(function, where, lambda args: bounds)
        options: dict[str, Any] = {
            "result_schema": result_schema,
            "result_as_answer": result_as_answer,
            "max_usage_count": max_usage_count,
        }
        decorate = crewai_tool(name, **options) if name else crewai_tool(**options)
        made = decorate(converting)
        # CrewAI builds the schema; the subclass only adds the agent-text mapping.
        fields = {field: getattr(made, field) for field in type(made).model_fields}
        return ResultFunctionTool(**fields)

    if len(args) == 1 and callable(args[0]):
        return make(args[0], None)
    if len(args) > 1 or (args and not isinstance(args[0], str)):
        raise TypeError("tool() takes a function, or a tool name and options")
    name = args[0] if args else None
    assert name is None or isinstance(name, str)
    return lambda function: make(function, name)


def result_of(context: ToolCallHookContext) -> ToolResult | None:
    """In an after-tool-call hook: the `ToolResult` of the call, artifacts included.

    A failure (the tool's `ToolResult.error`, or one CrewAI reported, such as a spent
    usage limit) comes back as `ToolResult.error` with the text the agent read. `None`
    when the tool was not a toolwire tool.
    """
    raw = context.raw_tool_result
    if isinstance(raw, ToolResult):
        return raw
    if isinstance(raw, ToolFailure):
        return ToolResult.error(raw.as_agent_message())
    return None


# The one naming pattern of the adapters (docs/frameworks/index.md); the old name stays.
result_tool = tool
