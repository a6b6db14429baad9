"""LlamaIndex: a `FunctionTool` whose function returns a `ToolResult`.

`ResultFunctionTool.from_defaults(fn)` is `FunctionTool.from_defaults(fn)` for a function
(sync or async) that returns a `ToolResult`. `call`/`acall` (and so every agent) get a
`ToolOutput` whose `content` (and `str()`) is exactly `result.content`, whose `is_error`
is the result's, and whose `raw_output` holds the artifacts in a carrier that pickles empty
and serialises (pydantic, workflow context snapshots) as a payload-free stub. A result
without artifacts leaves `result.content` there, what a function returning the str leaves.
The result is bounded as the function returns it (`bounds=`, else
`toolwire.adapters.default_bounds()`), before a callback or the `ToolOutput` sees it.

`ResultToolSpec` is `BaseToolSpec` for a spec whose `spec_functions` return a `ToolResult`:
its `to_tool_list()` (and so `to_tool_list_async()`) makes those annotated `-> ToolResult`
`ResultFunctionTool`s, with the metadata LlamaIndex would have built for `-> str`; the
others stay LlamaIndex's own `FunctionTool`s. Its `bounds` class attribute bounds them.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from llama_index.core.base.llms.types import ContentBlock, TextBlock
from llama_index.core.bridge.pydantic import BaseModel
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec

from toolwire.adapters._common import (
    BoundsOption,
    as_result,
    at_the_seam,
    check_bounds,
    resolve_bounds,
)
from toolwire.adapters._pydantic import PydanticRunOnlyArtifacts
from toolwire.result import ToolResult

__all__ = ["ResultFunctionTool", "ResultToolSpec", "to_tool_output"]


def to_tool_output(
    result: ToolResult,
    tool_name: str,
    raw_input: dict[str, Any] | None = None,
    *,
    bounds: BoundsOption = "default",
) -> ToolOutput:
    """The `ToolOutput` for a result: its content, its error flag, its artifacts as raw output
    (the content for a result without artifacts).

    `result` is bounded first (`bounds`, else `default_bounds()`).
    """
    result = resolve_bounds(bounds, "to_tool_output()").apply(result)
    return ToolOutput(
        tool_name=tool_name,
        blocks=[TextBlock(text=result.content)],
        raw_input=raw_input or {},
        raw_output=_raw_output(result),
        is_error=result.is_error,
    )


def _raw_output(result: ToolResult) -> PydanticRunOnlyArtifacts | str:
    """A `ToolOutput.raw_output`: the artifacts' carrier, or, without artifacts, the content,
    which is what a function returning the str leaves there."""
    if not result.artifacts:
        return result.content
    return PydanticRunOnlyArtifacts(result.artifacts)


def _returning_str(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A stand-in for `fn` whose signature says `-> str`, for the metadata `from_defaults` builds.

    `FunctionTool.from_defaults` puts the signature, return annotation included, into the
    description the model reads; the model should see what it saw before the migration.
    """
    signature = inspect.signature(fn)
    returned = signature.return_annotation
    if returned is inspect.Signature.empty:
        return fn
    # A string annotation (PEP 563) is shown quoted; keep that form.
    as_str = "str" if isinstance(returned, str) else str

    @functools.wraps(fn)
    def stand_in(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("metadata stand-in is never called")

    vars(stand_in)["__signature__"] = signature.replace(return_annotation=as_str)
    return stand_in


class ResultFunctionTool(FunctionTool):
    """`FunctionTool` for functions that return a `ToolResult` (or, while migrating, a `str`).

    `bounds` (a `Bounds`, `None` for off, or "default": `default_bounds()` at each call)
    bounds what the function returns; set it with `bounds=` or on the tool.
    """

    bounds: BoundsOption

    def __init__(self, *args: Any, bounds: BoundsOption = "default", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = check_bounds(bounds, "ResultFunctionTool()")
        # `call`/`acall` run these two; the metadata keeps reading the real function.
        sync_fn, async_fn = self._fn, self._async_fn

        def bounded(*args: Any, **kwargs: Any) -> ToolResult | str:
            return self._at_the_seam(sync_fn(*args, **kwargs))

        async def bounded_async(*args: Any, **kwargs: Any) -> ToolResult | str:
            return self._at_the_seam(await async_fn(*args, **kwargs))

        self._fn, self._async_fn = bounded, bounded_async

    def _at_the_seam(self, value: object) -> ToolResult | str:
        result = at_the_seam(value, f"LlamaIndex tool {self.metadata.get_name()!r}", self.bounds)
        # A plain str (a tool not yet migrated) stays a str, bounded, as LlamaIndex keeps it.
        return result.content if isinstance(value, str) else result

    @classmethod
    def from_defaults(
        cls,
        fn: Callable[..., Any] | None = None,
        name: str | None = None,
        description: str | None = None,
        return_direct: bool = False,
        fn_schema: type[BaseModel] | None = None,
        async_fn: Callable[..., Awaitable[Any]] | None = None,
        tool_metadata: ToolMetadata | None = None,
        callback: Callable[[Any], Any] | None = None,
        async_callback: Callable[..., Awaitable[Any]] | None = None,
        partial_params: dict[str, Any] | None = None,
        *,
        bounds: BoundsOption = "default",
    ) -> ResultFunctionTool:
        """Exactly `FunctionTool.from_defaults`, with the description written for `-> str`,
        and `bounds` (see the class)."""
        if tool_metadata is None:
            source = fn or async_fn
            if source is None:
                raise ValueError("fn or async_fn must be provided")
            tool_metadata = FunctionTool.from_defaults(
                fn=_returning_str(source),
                name=name,
                description=description,
                return_direct=return_direct,
                fn_schema=fn_schema,
                partial_params=partial_params,
            ).metadata
        return cls(
            fn=fn,
            metadata=tool_metadata,
            async_fn=async_fn,
            callback=callback,
            async_callback=async_callback,
            partial_params=partial_params,
            bounds=bounds,
        )

    def _parse_tool_output(self, raw_output: Any) -> list[ContentBlock]:
        result = as_result(raw_output, f"LlamaIndex tool {self.metadata.get_name()!r}")
        return [TextBlock(text=result.content)]

    def _settle(self, output: ToolOutput) -> ToolOutput:
        # The raw output is the function's ToolResult (also when a callback overrode the
        # content); it must not stay there: it has no string or serialised form. Without
        # artifacts it is the function's content, as a function returning the str leaves.
        raw = output.raw_output
        if not isinstance(raw, ToolResult):
            return output
        return output.model_copy(
            update={
                "raw_output": _raw_output(raw),
                "is_error": output.is_error or raw.is_error,
            }
        )

    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return self._settle(super().call(*args, **kwargs))

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return self._settle(await super().acall(*args, **kwargs))


class ResultToolSpec(BaseToolSpec):
    """`BaseToolSpec` whose spec functions that return a `ToolResult` are `ResultFunctionTool`s.

    `bounds` (class or instance attribute) is given to each of those tools.
    """

    bounds: BoundsOption = "default"

    def get_metadata_from_fn_name(
        self, fn_name: str, spec_functions: list[SPEC_FUNCTION_TYPE] | None = None
    ) -> ToolMetadata | None:
        # `to_tool_list` asks this for every spec function it has no metadata for; None
        # makes `FunctionTool.from_defaults` read the real signature, `-> ToolResult` included.
        metadata = super().get_metadata_from_fn_name(fn_name, spec_functions=spec_functions)
        func = getattr(self, fn_name)
        if not _returns_result(func):
            return metadata
        stand_in = _returning_str(func)
        if metadata is None:
            return FunctionTool.from_defaults(fn=stand_in).metadata
        if metadata.description == f"{fn_name}{inspect.signature(func)}\n{func.__doc__ or ''}":
            # The base class's own description (a spec with `get_fn_schema_from_fn_name`).
            description = f"{fn_name}{inspect.signature(stand_in)}\n{func.__doc__ or ''}"
            return dataclasses.replace(metadata, description=description)
        return metadata

    def to_tool_list(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        tools = super().to_tool_list(spec_functions, func_to_metadata_mapping)
        return [_result_tool(tool, self.bounds) for tool in tools]


def _returns_result(fn: Callable[..., Any]) -> bool:
    """Whether `fn` is annotated to return a `ToolResult` (also as a PEP 563 string)."""
    returned = inspect.signature(fn).return_annotation
    if isinstance(returned, str):
        return returned.rpartition(".")[2] == ToolResult.__name__
    return returned is ToolResult


def _result_tool(tool: FunctionTool, bounds: BoundsOption) -> FunctionTool:
    """`tool` (as `BaseToolSpec.to_tool_list` made it) as a `ResultFunctionTool`.

    Only a spec function annotated `-> ToolResult` is one: the others (`-> str` not yet
    migrated, `-> list[Document]`) keep LlamaIndex's own tool, and so their behaviour.
    """
    real = tool.real_fn  # the sync function of the spec, else its async one
    if not _returns_result(real):
        return tool
    if inspect.iscoroutinefunction(real):
        return ResultFunctionTool(async_fn=real, metadata=tool.metadata, bounds=bounds)
    return ResultFunctionTool(
        fn=real, async_fn=tool.async_fn, metadata=tool.metadata, bounds=bounds
    )
