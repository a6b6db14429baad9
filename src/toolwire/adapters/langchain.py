"""LangChain: tools whose `_run`/`_arun` (or function) return a `ToolResult`.

Subclass `ToolResultTool` instead of `BaseTool`, or decorate a function with
`result_tool` instead of `@tool`. When the tool runs through `invoke`/`ainvoke` (by hand, a
`ToolNode`, or an agent), a tool call yields a `ToolMessage` whose `content` is exactly
`result.content`, whose `artifact` holds the artifacts (None for a result without any, as
for a tool returning the str), and whose `status` is `"error"` for `ToolResult.error(...)`.
The result is bounded first (`bounds=`, else `toolwire.adapters.default_bounds()`). The
artifacts ride LangChain's documented run-only channel (`response_format=
"content_and_artifact"`) in a carrier that LangGraph checkpoints and every other pickle
or pydantic dump store as a payload-free stub.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, Literal, TypeVar, cast, overload

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, Tool
from langchain_core.tools.base import ArgsSchema
from pydantic import field_validator

from toolwire.adapters._common import BoundsOption, as_result, check_bounds, resolve_bounds
from toolwire.adapters._pydantic import PydanticRunOnlyArtifacts
from toolwire.result import ToolResult

__all__ = [
    "ResultSingleInputTool",
    "ResultStructuredTool",
    "ResultTool",
    "ToolResultTool",
    "result_tool",
    "to_content_and_artifact",
]

F = TypeVar("F", bound=Callable[..., Any])


@dataclasses.dataclass
class _Call:
    """The tool call being run: its id (None for a plain `invoke(args)`) and tool name."""

    tool_call_id: str | None
    name: str
    bounds: BoundsOption = "default"
    depth: int = 0


_CALL: ContextVar[_Call | None] = ContextVar("toolwire_langchain_call", default=None)


def to_content_and_artifact(
    result: ToolResult, name: str, tool_call_id: str | None, *, bounds: BoundsOption = "default"
) -> tuple[str | ToolMessage, PydanticRunOnlyArtifacts | None]:
    """The `(content, artifact)` pair LangChain's `content_and_artifact` format expects.

    `result` is bounded first (`bounds`, else `default_bounds()`). An error result becomes
    a ready `ToolMessage` with `status="error"` (LangChain passes a returned message
    through unchanged); without a tool call id there is no message, and the content is
    returned as LangChain returns a handled `ToolException`'s text. A result without
    artifacts has no artifact (None): its message is that of a tool returning the str.
    """
    result = resolve_bounds(bounds, "to_content_and_artifact()").apply(result)
    if result.is_error:
        if tool_call_id is None:
            return result.content, None
        message = ToolMessage(result.content, tool_call_id=tool_call_id, name=name, status="error")
        return message, None
    if not result.artifacts:  # artifact stays None, as for a tool returning the str
        return result.content, None
    return result.content, PydanticRunOnlyArtifacts(result.artifacts)


def _converting(method: F) -> F:
    """Wrap a tool body so that the outermost call in a tool run returns LangChain's pair.

    Called directly (not inside `run`/`arun`) or through `super()` from an override, the
    body returns its `ToolResult` unchanged.
    """

    def convert(value: object, call: _Call) -> object:
        return to_content_and_artifact(
            as_result(value, f"LangChain tool {call.name!r}"),
            call.name,
            call.tool_call_id,
            bounds=call.bounds,
        )

    if inspect.iscoroutinefunction(method):

        @functools.wraps(method)
        async def converting_async(*args: Any, **kwargs: Any) -> Any:
            call = _CALL.get()
            if call is None or call.depth:
                return await method(*args, **kwargs)
            call.depth += 1
            try:
                value = await method(*args, **kwargs)
            finally:
                call.depth -= 1
            return convert(value, call)

        wrapped: Any = converting_async
    else:

        @functools.wraps(method)
        def converting(*args: Any, **kwargs: Any) -> Any:
            call = _CALL.get()
            if call is None or call.depth:
                return method(*args, **kwargs)
            call.depth += 1
            try:
                value = method(*args, **kwargs)
            finally:
                call.depth -= 1
            return convert(value, call)

        wrapped = converting
    wrapped.__toolwire_converting__ = True
    return cast(F, wrapped)


class _CallScope(BaseTool):
    """Records the tool call around LangChain's own `run`/`arun`, which stay unchanged."""

    response_format: Literal["content_and_artifact"] = "content_and_artifact"
    bounds: BoundsOption = "default"
    """How this tool's results are bounded: a `Bounds`, `None` (off), or "default"."""

    @field_validator("bounds", mode="before")
    @classmethod
    def _check_bounds(cls, value: object) -> BoundsOption:
        # A one-line TypeError (pydantic passes it through), not a validation report.
        return check_bounds(value, f"{cls.__name__}(bounds=...)")

    def run(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        token = _CALL.set(_Call(kwargs.get("tool_call_id"), self.name, self.bounds))
        try:
            return super().run(tool_input, *args, **kwargs)
        finally:
            _CALL.reset(token)

    async def arun(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        token = _CALL.set(_Call(kwargs.get("tool_call_id"), self.name, self.bounds))
        try:
            return await super().arun(tool_input, *args, **kwargs)
        finally:
            _CALL.reset(token)


class ToolResultTool(_CallScope):
    """A `BaseTool` whose `_run` (and `_arun`, if defined) return a `ToolResult`.

    Everything else is `BaseTool`: `name`, `description`, `args_schema`, callbacks,
    `handle_tool_error` for exceptions the tool raises. `response_format` is fixed to
    `"content_and_artifact"`, LangChain's run-only channel. `bounds` (a field: pass
    `bounds=` to the constructor) bounds each result; "default" reads `default_bounds()`.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("_run", "_arun"):
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "__toolwire_converting__", False):
                setattr(cls, name, _converting(method))


def _content_and_artifact(kwargs: dict[str, Any], where: str) -> None:
    given = kwargs.setdefault("response_format", "content_and_artifact")
    if given != "content_and_artifact":
        raise ValueError(f"{where}: response_format is always 'content_and_artifact'")


class ResultStructuredTool(_CallScope, StructuredTool):
    """A `StructuredTool` whose function returns a `ToolResult`: what `result_tool` builds,
    and `StructuredTool.from_function(func=fn, ...)` for such a function, as
    `ResultStructuredTool.from_function(func=fn, ...)` (same arguments, same schema)."""

    @classmethod
    def from_function(
        cls,
        func: Callable[..., Any] | None = None,
        coroutine: Callable[..., Any] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> StructuredTool:
        _content_and_artifact(kwargs, "ResultStructuredTool.from_function()")
        return super().from_function(
            _converting(func) if func is not None else None,
            _converting(coroutine) if coroutine is not None else None,
            *args,
            **kwargs,
        )


class ResultSingleInputTool(_CallScope, Tool):
    """A single-input `Tool` whose function returns a `ToolResult`: what
    `result_tool(infer_schema=False)` builds, and `Tool.from_function(fn, name,
    description)` for such a function, as `ResultSingleInputTool.from_function(...)`."""

    @classmethod
    def from_function(
        cls,
        func: Callable[..., Any] | None,
        name: str,
        description: str,
        return_direct: bool = False,
        args_schema: ArgsSchema | None = None,
        coroutine: Callable[..., Any] | None = None,
        **kwargs: Any,
    ) -> Tool:
        _content_and_artifact(kwargs, "ResultSingleInputTool.from_function()")
        return super().from_function(
            _converting(func) if func is not None else None,
            name,
            description,
            return_direct,
            args_schema,
            _converting(coroutine) if coroutine is not None else None,
            **kwargs,
        )


# The names `result_tool` used for them before they were public.
_ResultStructuredTool = ResultStructuredTool
_ResultSingleInputTool = ResultSingleInputTool


@overload
def result_tool(name_or_callable: Callable[..., Any], /) -> BaseTool: ...


@overload
def result_tool(
    name_or_callable: str | None = None,
    /,
    *,
    description: str | None = None,
    return_direct: bool = False,
    args_schema: ArgsSchema | None = None,
    infer_schema: bool = True,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = True,
    extras: dict[str, Any] | None = None,
    bounds: BoundsOption = "default",
) -> Callable[[Callable[..., Any]], BaseTool]: ...


def result_tool(
    name_or_callable: str | Callable[..., Any] | None = None,
    /,
    *,
    description: str | None = None,
    return_direct: bool = False,
    args_schema: ArgsSchema | None = None,
    infer_schema: bool = True,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = True,
    extras: dict[str, Any] | None = None,
    bounds: BoundsOption = "default",
) -> BaseTool | Callable[[Callable[..., Any]], BaseTool]:
    """`@tool` for a function (sync or async) that returns a `ToolResult`.

    Takes `@tool`'s arguments, with the same defaults, and gives the model the same name,
    description and argument schema `@tool` would. `response_format` is always
    `"content_and_artifact"`. `bounds` bounds each result (see `ToolResultTool`).
    """
    check_bounds(bounds, "result_tool()")

    def build(fn: Callable[..., Any], name: str) -> BaseTool:
        converting = _converting(fn)
        is_async = inspect.iscoroutinefunction(fn)
        if not infer_schema and args_schema is None:
            text = description or fn.__doc__
            if text is None:
                raise ValueError(
                    "Function must have either a docstring or description "
                    "when infer_schema is False."
                )
            return _ResultSingleInputTool(
                name=name,
                func=None if is_async else converting,
                coroutine=converting if is_async else None,
                description=text,
                return_direct=return_direct,
                bounds=bounds,
            )
        return _ResultStructuredTool.from_function(
            None if is_async else converting,
            converting if is_async else None,
            name=name,
            description=description,
            return_direct=return_direct,
            args_schema=args_schema,
            infer_schema=infer_schema,
            response_format="content_and_artifact",
            parse_docstring=parse_docstring,
            error_on_invalid_docstring=error_on_invalid_docstring,
            extras=extras,
            bounds=bounds,
        )

    if callable(name_or_callable):
        return build(name_or_callable, name_or_callable.__name__)
    tool_name = name_or_callable
    return lambda fn: build(fn, tool_name or fn.__name__)


# The one naming pattern of the adapters (docs/frameworks/index.md); the old name stays.
ResultTool = ToolResultTool
