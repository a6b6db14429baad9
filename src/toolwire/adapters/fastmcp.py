"""FastMCP (the standalone `fastmcp` package): tools that return a `ToolResult`, and back.

Server side, put `@result_tool` under `@mcp.tool` (or pass `result_tool(fn)` to
`mcp.add_tool`)::

    @mcp.tool
    @result_tool
    def lookup(city: str) -> ToolResult: ...

The tool returns fastmcp's own `ToolResult`: one `TextContent` holding `result.content`,
`is_error` set for `ToolResult.error(...)`, and the artifacts in `meta` (`_meta` on the
wire) under `"toolwire/artifacts"`, exactly as `toolwire.adapters.mcp` puts them. Not in
`structured_content`, which the MCP specification lets a host give to the model: that
holds `{"result": content}`, as for a tool that returns `str`, and the tool is listed as
one (fastmcp's output schema). A plain text result is handed to fastmcp as that `str`.
Client side, `from_call_tool_result(await client.call_tool(
..., raise_on_error=False))` gives the host a `ToolResult` again. See
docs/frameworks/fastmcp.md.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, overload

from fastmcp.client.client import CallToolResult as ClientResult
from fastmcp.tools import ToolResult as FastMCPToolResult
from mcp.types import CallToolResult

from toolwire.adapters import mcp as _mcp
from toolwire.adapters._common import BoundsOption, check_bounds
from toolwire.result import ToolResult

__all__ = ["ARTIFACTS_KEY", "from_call_tool_result", "result_tool", "to_fastmcp_result"]

ARTIFACTS_KEY = _mcp.ARTIFACTS_KEY
"""The `meta` (`_meta`) key that carries the artifacts: the MCP adapter's, so that either
side of a connection may be the other framework."""

P = ParamSpec("P")


def to_fastmcp_result(result: ToolResult, *, bounds: BoundsOption = "default") -> FastMCPToolResult:
    """fastmcp's `ToolResult` for `result`: one text block, artifacts in `meta`.

    Built from the MCP adapter's `CallToolResult`, so it is bounded the same way
    (`bounds`, else `default_bounds()`; see `toolwire.bounds`).
    """
    call = _mcp.to_call_tool_result(result, bounds=bounds)
    return FastMCPToolResult(content=call.content, meta=call.meta, is_error=call.isError)


@overload
def result_tool(
    fn: Callable[P, Awaitable[ToolResult | str]], /, *, bounds: BoundsOption = ...
) -> Callable[P, Awaitable[FastMCPToolResult]]: ...


@overload
def result_tool(
    fn: Callable[P, ToolResult | str], /, *, bounds: BoundsOption = ...
) -> Callable[P, FastMCPToolResult]: ...


@overload
def result_tool(
    fn: None = None, /, *, bounds: BoundsOption = ...
) -> Callable[[Callable[P, Any]], Callable[P, Any]]: ...


def result_tool(fn: Callable[P, Any] | None = None, /, *, bounds: BoundsOption = "default") -> Any:
    """Make a tool function that returns a `ToolResult` return fastmcp's `ToolResult`.

    The wrapper keeps the function's name, docstring and parameters, so fastmcp builds
    the same input schema and still injects a `Context`; its return annotation is `str`,
    so the tool is listed as the same function returning `str` (issue 24). A `str`
    return is taken as `ToolResult.text(...)`; anything else is a `TypeError` naming the
    tool, which fastmcp reports as an error result. `@result_tool(bounds=...)` sets this
    tool's bounds.
    """
    check_bounds(bounds, "result_tool()")
    if fn is None:
        return lambda function: result_tool(function, bounds=bounds)

    def convert(result: ToolResult) -> FastMCPToolResult | str:
        call = _mcp.text_or_call(result, bounds)
        if isinstance(call, str):
            return call
        return FastMCPToolResult(
            content=call.content,
            structured_content=call.structuredContent,
            meta=call.meta,
            is_error=call.isError,
        )

    where = f"FastMCP tool {getattr(fn, '__name__', repr(fn))}"
    return _mcp.wrap_tool(fn, where, convert, str)


def from_call_tool_result(
    result: ClientResult | CallToolResult, *, bounds: BoundsOption = "default"
) -> ToolResult:
    """The `ToolResult` for what `Client.call_tool` (or `call_tool_mcp`) returned.

    Mapped as `toolwire.adapters.mcp.from_call_tool_result` maps a `CallToolResult`:
    the text blocks are `content`, `is_error` gives `ToolResult.error(content)`, the
    `toolwire/artifacts` records of `meta` are the artifacts, and every other block and
    any structured content become run-only `mcp/...` artifacts (`data`, the client's
    parsed copy of the structured content, adds nothing). Call with
    `raise_on_error=False`: by default `Client.call_tool` raises `ToolError` instead.
    The server may be anyone's: the result is bounded here (`bounds`, else
    `default_bounds()`).
    """
    if isinstance(result, ClientResult):
        payload: dict[str, Any] = {"content": result.content, "isError": result.is_error}
        if result.structured_content is not None:
            payload["structuredContent"] = result.structured_content
        if result.meta is not None:
            payload["_meta"] = result.meta
        result = CallToolResult.model_validate(payload)
    return _mcp.from_call_tool_result(result, bounds=bounds)
