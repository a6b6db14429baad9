"""The pydantic-ai bridge: `@agent.tool` / `@agent.tool_plain` functions that return a `ToolResult`.

    @agent.tool_plain
    @result_tool
    def lookup(city: str) -> ToolResult: ...

or, inside a tool that returns pydantic-ai's own type, `return to_tool_return(result)`;
a custom toolset (pydantic-ai's `AbstractToolset` shape) subclasses `ResultToolset`, whose
`call_tool` may then return a `ToolResult`.

- The result is bounded first (`bounds=`, else `toolwire.adapters.default_bounds()`).
- The model reads `result.content`: it is `ToolReturn.return_value`, so the call's
  `ToolReturnPart.content`.
- The artifacts are `ToolReturn.metadata`, an `ArtifactMetadata`: pydantic-ai keeps
  metadata on the `ToolReturnPart` for the application and never sends it to the model.
  A result without artifacts has no metadata (None), so its part and the stored history
  are those of the same tool returning the str.
- Message history (`result.all_messages_json()`, `ModelMessagesTypeAdapter.dump_json`)
  stores a `ToolReturnPart`'s metadata, so `ArtifactMetadata` serialises to a stub without
  the payload; the live part keeps the artifacts.
- `ToolResult.error(...)` raises `ToolFailed(content)`: pydantic-ai's terminal tool failure,
  a part with `outcome="failed"` that providers with an error channel mark as an error, and
  without a retry prompt or a retry spent.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ClassVar, overload

from pydantic import BaseModel, ConfigDict, model_serializer
from pydantic_ai import RunContext, ToolFailed, ToolReturn
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool

from toolwire.adapters._common import (
    BoundsOption,
    RunOnlyArtifacts,
    as_result,
    check_bounds,
    resolve_bounds,
)
from toolwire.result import ToolResult

__all__ = ["ArtifactMetadata", "ResultTool", "ResultToolset", "result_tool", "to_tool_return"]


class ArtifactMetadata(BaseModel):
    """`ToolReturn.metadata` of a toolwire result: the artifacts live, a stub when dumped.

    Every pydantic dump (JSON or Python mode) is `{"toolwire_run_only_artifacts": n}`; a
    pickled copy holds no artifact either. A history loaded back has that stub as its
    metadata (a plain dict).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    artifacts: RunOnlyArtifacts

    @model_serializer
    def _stub(self) -> dict[str, Any]:
        return self.artifacts.to_json()


def to_tool_return(result: ToolResult, *, bounds: BoundsOption = "default") -> ToolReturn[str]:
    """The `ToolReturn` a pydantic-ai tool returns for `result`, bounded (`bounds`, else
    `default_bounds()`).

    An error result raises `ToolFailed(result.content)` instead, which is how a pydantic-ai
    tool fails: call it where the tool returns, so the exception leaves the tool.
    """
    result = resolve_bounds(bounds, "to_tool_return()").apply(result)
    if result.is_error:
        raise ToolFailed(result.content)
    if not result.artifacts:  # metadata stays None, as for a tool returning the str
        return ToolReturn(return_value=result.content)
    metadata = ArtifactMetadata(artifacts=RunOnlyArtifacts(result.artifacts))
    return ToolReturn(return_value=result.content, metadata=metadata)


@overload
def result_tool(
    func: Callable[..., Any], /, *, bounds: BoundsOption = ...
) -> Callable[..., Any]: ...


@overload
def result_tool(
    func: None = None, /, *, bounds: BoundsOption = ...
) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...


def result_tool(
    func: Callable[..., Any] | None = None, /, *, bounds: BoundsOption = "default"
) -> Any:
    """Wrap a function that returns a `ToolResult` (or a plain str) as a pydantic-ai tool.

    Put it under pydantic-ai's decorator (`@agent.tool`, `@agent.tool_plain`,
    `@toolset.tool`) or pass the result to `Tool(...)`. The signature, docstring and
    parameter schema are the function's own; the return is declared `ToolReturn[str]`, so
    the tool's return schema is that of a tool returning `str`. `@result_tool(bounds=...)`
    bounds this tool's results: a `Bounds`, `None` (off), or "default" (read at each call).
    """
    check_bounds(bounds, "result_tool()")
    if func is None:
        return lambda function: result_tool(function, bounds=bounds)
    target = func
    where = f"tool {getattr(func, '__qualname__', repr(func))}"
    wrapper: Callable[..., Any]
    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def call_async(*args: Any, **kwargs: Any) -> ToolReturn[str]:
            return to_tool_return(as_result(await target(*args, **kwargs), where), bounds=bounds)

        wrapper = call_async
    else:

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> ToolReturn[str]:
            return to_tool_return(as_result(target(*args, **kwargs), where), bounds=bounds)

        wrapper = call
    # A copy: `wraps` shares `__annotations__` with `func`.
    wrapper.__annotations__ = {**getattr(func, "__annotations__", {}), "return": ToolReturn[str]}
    signed: Any = wrapper
    signed.__signature__ = inspect.signature(func).replace(return_annotation=ToolReturn[str])
    return wrapper


class ResultToolset(AbstractToolset[Any]):
    """The base of a custom toolset whose `call_tool` may return a `ToolResult`.

    A subclass's own `call_tool` is wrapped when the class is made: a `ToolResult` it
    returns becomes `to_tool_return(result, bounds=cls.bounds)` (an error raises
    `ToolFailed`); any other value (a str, a model, a `ToolReturn`) is passed on unchanged,
    as pydantic-ai would take it. Set the class attribute `bounds` to bound differently.
    """

    bounds: ClassVar[BoundsOption] = "default"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_bounds(cls.bounds, f"{cls.__qualname__}.bounds")
        own = cls.__dict__.get("call_tool")
        if own is None or not inspect.iscoroutinefunction(own):
            return
        target = own

        @functools.wraps(own)
        async def call_tool(
            self: ResultToolset,
            name: str,
            tool_args: dict[str, Any],
            ctx: RunContext[Any],
            tool: ToolsetTool[Any],
        ) -> Any:
            value = await target(self, name, tool_args, ctx, tool)
            if isinstance(value, ToolResult):
                return to_tool_return(value, bounds=type(self).bounds)
            return value

        setattr(cls, "call_tool", call_tool)  # noqa: B010  # mypy: a method is not assignable


# The adapters' one name for a class tool's base (docs/frameworks/index.md).
ResultTool = ResultToolset
