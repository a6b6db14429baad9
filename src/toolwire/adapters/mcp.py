"""MCP: FastMCP (mcp 1.x) / MCPServer (mcp 2.x) tools that return a `ToolResult`, and back.

Server side, put `@result_tool` under `@mcp.tool()`::

    @mcp.tool()
    @result_tool
    def lookup(city: str) -> ToolResult: ...

The client receives a `CallToolResult` whose only content block is one `TextContent`
holding `result.content`, with `isError` set for `ToolResult.error(...)`, and the
artifacts under `_meta["toolwire/artifacts"]` as `{type, label, data}` records. They are
not put in `structuredContent`, which some clients (pydantic-ai, the Agents SDK) send
to the model: that holds `{"result": content}`, as for a tool that returns `str`, and
the tool is listed as one (the same `outputSchema`).

Client side, `from_call_tool_result(await session.call_tool(...))` gives the host a
`ToolResult` again. See docs/frameworks/mcp.md.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec, TypeVar, overload

from mcp.types import CallToolResult

from toolwire.adapters._common import BoundsOption, as_result, check_bounds, resolve_bounds
from toolwire.bounds import bound_artifacts
from toolwire.result import ToolArtifact, ToolResult

__all__ = [
    "ARTIFACTS_KEY",
    "from_call_tool_result",
    "result_tool",
    "text_or_call",
    "to_call_tool_result",
    "wrap_tool",
]

ARTIFACTS_KEY = "toolwire/artifacts"
"""The `_meta` key of a `CallToolResult` that carries the artifacts."""

# With the artifacts' bound off they still have to survive JSON-RPC: no cap, but coerced.
_NO_BUDGET = sys.maxsize

P = ParamSpec("P")


def to_call_tool_result(
    result: ToolResult, *, bounds: BoundsOption = "default", structured: bool = False
) -> CallToolResult:
    """The `CallToolResult` for `result`: its content as one text block, artifacts in `_meta`.

    `result` is bounded first (`bounds`, else `default_bounds()`: see
    docs/frameworks/index.md). Text is always coerced to valid UTF-8, and artifact data
    that JSON cannot encode collapses into one "Artifacts omitted" TEXT artifact (or is
    dropped, with the "drop" policy), also with bounds off, so that the result always
    serialises onto the MCP wire. `structured`: also `structuredContent` `{"result":
    content}`, what the SDK sends for a tool that returns `str` (the content only).
    """
    if not isinstance(result, ToolResult):
        raise TypeError(f"expected a ToolResult, got {type(result).__name__}")
    limits = resolve_bounds(bounds, "to_call_tool_result()")
    result = limits.apply(result)
    # Aliased field names ("isError", "_meta") are accepted by mcp 1.x and 2.x alike.
    payload: dict[str, Any] = {
        "content": [{"type": "text", "text": result.content}],
        "isError": result.is_error,
    }
    artifacts = result.artifacts
    if artifacts and limits.artifacts is None:
        artifacts = bound_artifacts(artifacts, budget=_NO_BUDGET, policy=limits.policy)
    if artifacts:
        payload["_meta"] = {ARTIFACTS_KEY: [artifact.to_dict() for artifact in artifacts]}
    if structured:
        payload["structuredContent"] = {"result": result.content}
    return CallToolResult.model_validate(payload)


@overload
def result_tool(
    fn: Callable[P, Awaitable[ToolResult | str]], /, *, bounds: BoundsOption = ...
) -> Callable[P, Awaitable[CallToolResult]]: ...


@overload
def result_tool(
    fn: Callable[P, ToolResult | str], /, *, bounds: BoundsOption = ...
) -> Callable[P, CallToolResult]: ...


@overload
def result_tool(
    fn: None = None, /, *, bounds: BoundsOption = ...
) -> Callable[[Callable[P, Any]], Callable[P, Any]]: ...


def result_tool(fn: Callable[P, Any] | None = None, /, *, bounds: BoundsOption = "default") -> Any:
    """Make a tool function that returns a `ToolResult` return a `CallToolResult` instead.

    Apply it under `@mcp.tool()` (or pass `result_tool(fn)` to `add_tool`); `@result_tool(
    bounds=...)` sets this tool's bounds (else `default_bounds()`, read at each call). The wrapper
    keeps the function's name, docstring and parameters, so FastMCP builds the same
    input schema and still injects a `Context` parameter. Its return annotation is `str`,
    so the tool is listed exactly as the same function returning `str` (the SDK's
    `outputSchema` `{"result": string}` unless registered with `structured_output=False`).
    A plain text result is handed to the SDK as that `str`, so it sends what it sent
    before the migration; an error or a result with artifacts is a `CallToolResult` with
    `isError`, the artifacts in `_meta` and `structuredContent` `{"result": content}`.
    A tool that returns a `str` is taken as `ToolResult.text(...)`; anything else is a
    `TypeError`, which the server reports as an error result naming the tool.
    """
    check_bounds(bounds, "result_tool()")
    if fn is None:
        return lambda function: result_tool(function, bounds=bounds)

    def convert(result: ToolResult) -> CallToolResult | str:
        return text_or_call(result, bounds)

    where = f"MCP tool {getattr(fn, '__name__', repr(fn))}"
    return wrap_tool(fn, where, convert, str)


def text_or_call(result: ToolResult, bounds: BoundsOption) -> CallToolResult | str:
    """What a wrapped tool declared `str` hands its SDK: the bounded content, as the `str`
    the SDK makes of what it made before the migration, or, for an error or a result with
    artifacts, a `CallToolResult` with `structuredContent` `{"result": content}`. Shared
    with `toolwire.adapters.fastmcp`."""
    call = to_call_tool_result(result, bounds=bounds, structured=True)
    # Aliased names: mcp 2.x renames the fields (`is_error`), not their JSON.
    sent = call.model_dump(mode="json", by_alias=True, exclude_none=True)
    if sent.get("isError") or "_meta" in sent:
        return call
    text: str = sent["content"][0]["text"]
    return text


R = TypeVar("R")


def wrap_tool(
    fn: Callable[..., Any], where: str, convert: Callable[[ToolResult], R], returns: object
) -> Callable[..., Any]:
    """`fn` with its `ToolResult` (or `str`) turned into the framework's result by `convert`.

    Shared with `toolwire.adapters.fastmcp`. The wrapper keeps the name, docstring and
    parameters; its return annotation is `returns`, so the framework sees that type.
    """
    # Evaluated here, in the tool's own module: the wrapper's signature is taken as is.
    signature = inspect.signature(fn, eval_str=True)

    def sync_tool(*args: Any, **kwargs: Any) -> R:
        return convert(as_result(fn(*args, **kwargs), where))

    async def async_tool(*args: Any, **kwargs: Any) -> R:
        return convert(as_result(await fn(*args, **kwargs), where))

    wrapper = functools.wraps(fn)(async_tool if inspect.iscoroutinefunction(fn) else sync_tool)
    wrapper.__annotations__ = {
        name: parameter.annotation
        for name, parameter in signature.parameters.items()
        if parameter.annotation is not inspect.Parameter.empty
    } | {"return": returns}
    # `__signature__` stops inspect.signature from following `__wrapped__` back to `fn`.
    wrapper.__dict__["__signature__"] = signature.replace(return_annotation=returns)
    return wrapper


def from_call_tool_result(
    result: CallToolResult, *, bounds: BoundsOption = "default"
) -> ToolResult:
    """The `ToolResult` for a `CallToolResult` from `ClientSession.call_tool`, bounded.

    The server may be anyone's: the result is bounded here, the host's seam (`bounds`,
    else `default_bounds()`).

    - `content`: the text blocks, joined with a newline (one block gives its text as is);
    - `isError`: `ToolResult.error(content)`, which carries no artifacts;
    - `_meta["toolwire/artifacts"]`: the artifacts, in order;
    - every other content block (image, audio, resource, resource link) and any
      `structuredContent`: a run-only artifact of type `mcp/<block type>` or
      `mcp/structuredContent` holding the block's JSON, so nothing but text reaches
      `content` and nothing the server sent is lost.

    A `_meta["toolwire/artifacts"]` that is not a list of `{type, label, data}` records
    raises `ValueError`.
    """
    limits = resolve_bounds(bounds, "from_call_tool_result()")
    wire: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    texts: list[str] = []
    others: list[ToolArtifact] = []
    for block in wire.get("content", []):
        kind = str(block.get("type", ""))
        if kind == "text":
            texts.append(str(block.get("text", "")))
        else:
            others.append(ToolArtifact(f"mcp/{kind or 'content'}", _block_label(block), block))
    content = "\n".join(texts)
    if wire.get("isError"):
        return limits.apply(ToolResult.error(content))
    structured = wire.get("structuredContent")
    # `{"result": <the text>}` (a `str` tool's structured output) repeats the content
    if "structuredContent" in wire and structured != {"result": content}:
        others.append(ToolArtifact("mcp/structuredContent", "structuredContent", structured))
    artifacts = (*_artifacts_from_meta(wire.get("_meta")), *others)
    return limits.apply(ToolResult.text(content, *artifacts))


def _block_label(block: Mapping[str, Any]) -> str:
    resource = block.get("resource")
    for label in (
        block.get("uri"),
        resource.get("uri") if isinstance(resource, Mapping) else None,
        block.get("mimeType"),
    ):
        if isinstance(label, str) and label:
            return label
    return str(block.get("type", "content"))


def _artifacts_from_meta(meta: object) -> tuple[ToolArtifact, ...]:
    if not isinstance(meta, Mapping) or ARTIFACTS_KEY not in meta:
        return ()
    records = meta[ARTIFACTS_KEY]
    where = f"_meta[{ARTIFACTS_KEY!r}]"
    if not isinstance(records, list):
        raise ValueError(f"{where} must be a list of records, got {type(records).__name__}")
    artifacts: list[ToolArtifact] = []
    for index, record in enumerate(records):
        if not isinstance(record, Mapping) or not {"type", "label", "data"} <= record.keys():
            raise ValueError(f"{where}[{index}] is not a {{type, label, data}} record")
        try:
            artifacts.append(ToolArtifact(record["type"], record["label"], record["data"]))
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}[{index}]: {error}") from None
    return tuple(artifacts)
