"""The Google ADK bridge: function tools that return a `ToolResult`.

    @result_tool
    def lookup(city: str) -> ToolResult: ...

    agent = Agent(name="a", model=..., tools=[lookup])   # or FunctionTool(lookup)

- The result is bounded first (`bounds=`, else `toolwire.adapters.default_bounds()`).
- The model reads `result.content`: the wrapper returns it as a `str`, which ADK sends as
  `{"result": <content>}`, exactly what it sent for the tool's old `str` return.
- `ToolResult.error(...)` returns `{"error": <content>}`: ADK's own shape for a failed
  call (its argument checks answer so), not a raise, which ends the whole run unless an
  `on_tool_error` callback answers it.
- The artifacts go to ADK's artifact service, the run-only channel, through the call's
  `ToolContext.save_artifact` (one part each, named `toolwire-<call id>-<n>`, the type and
  label in its custom metadata). The event records only the names and versions, never in
  session state. Called outside ADK (no `ToolContext`), the artifacts go nowhere.

The function's name, docstring and parameters are kept, so ADK declares the tool as before;
its return is declared `str`. A function without a `ToolContext` parameter gets a
keyword-only `tool_context` one, which ADK fills and leaves out of the declaration.

A custom tool (a `BaseTool` subclass) subclasses `ResultTool` instead: its `run_async`
returns a `ToolResult`, and ADK gets what `result_tool` gives (the content, or
`{"error": ...}`), the artifacts saved through the call's `tool_context`.
"""

from __future__ import annotations

import functools
import inspect
import json
import typing
from collections.abc import Awaitable, Callable
from typing import Any, overload

import google.adk  # noqa: F401  (a lazy package: the rest is imported where it is used)
from google.adk.tools.base_tool import BaseTool

from toolwire.adapters._common import BoundsOption, at_the_seam, check_bounds
from toolwire.result import ToolArtifact, ToolResult

__all__ = [
    "ARTIFACT_PREFIX",
    "ResultTool",
    "artifact_part",
    "from_artifact_part",
    "result_tool",
    "to_response",
]

ARTIFACT_PREFIX = "toolwire-"
"""How the artifact service names a toolwire artifact: `toolwire-<function call id>-<n>`."""

_CONTEXT = "tool_context"  # ADK's own default name for the injected context
_RUN = "run_async"  # what ADK awaits on a custom tool (`BaseTool`)


def to_response(result: ToolResult, *, bounds: BoundsOption = "default") -> str | dict[str, str]:
    """What a function tool returns to ADK for `result`: its content, `{"error": ...}` for
    an error. The artifacts are not in it (`result_tool` saves them)."""
    return _response(at_the_seam(result, "to_response()", bounds))


def _response(result: ToolResult) -> str | dict[str, str]:
    return {"error": result.content} if result.is_error else result.content


def artifact_part(artifact: ToolArtifact) -> Any:
    """The `google.genai.types.Part` an artifact is saved as: its `to_dict()` as JSON."""
    from google.genai import types

    data = json.dumps(artifact.to_dict(), ensure_ascii=False).encode("utf-8")
    return types.Part.from_bytes(data=data, mime_type="application/json")


def from_artifact_part(part: Any) -> ToolArtifact:
    """The artifact `artifact_part` saved, from the part the artifact service gives back."""
    record = json.loads(part.inline_data.data.decode("utf-8"))
    return ToolArtifact(record["type"], record["label"], record["data"])


async def _save(artifacts: tuple[ToolArtifact, ...], context: Any) -> None:
    call = getattr(context, "function_call_id", None) or "call"
    for index, artifact in enumerate(artifacts):
        meta = {"toolwire_type": str.__str__(artifact.type), "label": artifact.label}
        await context.save_artifact(
            f"{ARTIFACT_PREFIX}{call}-{index}", artifact_part(artifact), custom_metadata=meta
        )


def _context_type() -> Any:
    from google.adk.tools.tool_context import ToolContext

    return ToolContext


def _is_context(value: object) -> bool:
    from google.adk.agents.context import Context

    return isinstance(value, Context)


def _converting(method: Callable[..., Any]) -> Callable[..., Any]:
    """A `run_async` that returns what ADK sends for the `ToolResult` `method` returns."""

    @functools.wraps(method)
    async def run_async(self: Any, **kwargs: Any) -> Any:
        value = await method(self, **kwargs)
        result = at_the_seam(value, f"tool {type(self).__qualname__}", self.bounds)
        context = kwargs.get(_CONTEXT)
        if result.artifacts and _is_context(context):
            await _save(result.artifacts, context)
        return _response(result)

    run_async.__toolwire_converting__ = True  # type: ignore[attr-defined]
    return run_async


# ADK may be untyped where mypy runs (not installed): a subclass of Any there
class ResultTool(BaseTool):  # type: ignore[misc, unused-ignore]
    """A `BaseTool` whose `run_async` returns a `ToolResult` (or a plain str).

    Everything else is `BaseTool`: the constructor, `_get_declaration`, callbacks. A
    subclass's own `run_async` is wrapped when the class is made; `bounds` (a class or
    instance attribute) bounds each result: a `Bounds`, `None` (off), or "default".
    """

    bounds: BoundsOption = "default"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_bounds(cls.bounds, f"{cls.__qualname__}.bounds")
        method = cls.__dict__.get(_RUN)
        if callable(method) and not getattr(method, "__toolwire_converting__", False):
            setattr(cls, _RUN, _converting(method))


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
    """Wrap a function that returns a `ToolResult` (or a plain str) as an ADK function tool.

    Pass the result where the function went (`Agent(tools=[fn])`, `FunctionTool(fn)`,
    `LongRunningFunctionTool(fn)`). `@result_tool(bounds=...)` bounds this tool's results:
    a `Bounds`, `None` (off), or "default" (read at each call).
    """
    check_bounds(bounds, "result_tool()")
    if func is None:
        return lambda function: result_tool(function, bounds=bounds)
    target = func
    where = f"tool {getattr(func, '__qualname__', repr(func))}"
    signature = inspect.signature(func)
    added = _CONTEXT not in signature.parameters

    def finish(value: object, context: Any) -> Any:
        result = at_the_seam(value, where, bounds)
        response = _response(result)
        if not result.artifacts or not _is_context(context):
            return response

        async def saved() -> Any:
            await _save(result.artifacts, context)
            return response

        # ADK awaits what a sync tool returns when it is awaitable; the function itself
        # ran as before (on the loop, or on ADK's sync-tool runner).
        return saved()

    def split(kwargs: dict[str, Any]) -> Any:
        return kwargs.pop(_CONTEXT, None) if added else kwargs.get(_CONTEXT)

    wrapper: Callable[..., Any]
    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def call_async(*args: Any, **kwargs: Any) -> Any:
            context = split(kwargs)
            done = finish(await target(*args, **kwargs), context)
            return await done if inspect.isawaitable(done) else done

        wrapper = call_async
    else:

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any | Awaitable[Any]:
            context = split(kwargs)
            return finish(target(*args, **kwargs), context)

        wrapper = call
    _declare(wrapper, func, signature, added)
    return wrapper


def _declare(
    wrapper: Callable[..., Any], func: Callable[..., Any], signature: inspect.Signature, added: bool
) -> None:
    """The wrapper's declaration: the function's parameters (and a `tool_context` ADK
    fills where it had none), returning `str`; annotations resolved where they can be, as
    ADK reads them from the wrapper's globals in one of its paths."""
    try:
        annotations = typing.get_type_hints(func, include_extras=True)
    except Exception:  # a forward reference not defined yet: ADK resolves it later
        annotations = dict(getattr(func, "__annotations__", {}))
    parameters = list(signature.parameters.values())
    if added:
        context = inspect.Parameter(
            _CONTEXT, inspect.Parameter.KEYWORD_ONLY, annotation=_context_type()
        )
        last = len(parameters)
        if parameters and parameters[-1].kind is inspect.Parameter.VAR_KEYWORD:
            last -= 1
        parameters.insert(last, context)
        annotations[_CONTEXT] = context.annotation
    annotations["return"] = str
    wrapper.__annotations__ = annotations
    signed: Any = wrapper
    signed.__signature__ = signature.replace(parameters=parameters, return_annotation=str)
