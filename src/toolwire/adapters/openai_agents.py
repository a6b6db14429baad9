"""The OpenAI Agents SDK bridge: a `@function_tool` whose function returns a `ToolResult`.

    @result_tool
    def lookup(city: str) -> ToolResult: ...

`result_tool` is `agents.function_tool` (same options, same JSON schema) for a function
that returns a `ToolResult`. On each call, the result is bounded first (`bounds=`, else
`toolwire.adapters.default_bounds()`), then:

- the model's tool output is `result.content`, exactly, as a plain str;
- `ToolCallOutputItem.output` is a `ResultOutput` that holds the artifacts for the live run;
  its str, pickled and `RunState.to_json()` forms are the content only;
- `ToolCallOutputItem.custom_data["toolwire"]` says whether the call failed and how many
  artifacts it had, never their payload: the SDK writes `custom_data` into
  `RunState.to_json()`, and artifacts are never resumable state (ADR-108). A result
  without artifacts adds no record, so the stored state is that of a tool returning the str;
- `ToolResult.error(...)` fails the call the SDK's way (its `failure_error_function` path:
  an error on the tool's trace span and an `openai.agents` error log line), and the model
  reads the error's content, exactly.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, Final, final

from agents import FunctionTool, RunContextWrapper, default_tool_error_function, function_tool
from agents.tool import FunctionToolCustomDataContext

from toolwire.adapters._common import BoundsOption, RunOnlyArtifacts, at_the_seam, check_bounds
from toolwire.result import ToolResult

__all__ = ["CUSTOM_DATA_KEY", "ResultOutput", "result_tool"]

CUSTOM_DATA_KEY: Final = "toolwire"

ErrorFunction = Callable[[RunContextWrapper[Any], Exception], Any]
Extractor = Callable[[FunctionToolCustomDataContext], Any]


@final
class ResultOutput:
    """A result tool's return value as the SDK holds it in `ToolCallOutputItem.output`.

    The SDK turns a tool's return value into the model's text with `str()`, so `str()` of
    this object is `result.content`, and nothing else is. The artifacts stay in memory for
    the live run (hooks, streamed items, `result.new_items`); a pickled copy is the content
    only, like the SDK's own `RunState.to_json()` form of it.
    """

    __slots__ = ("_result",)

    def __init__(self, result: ToolResult) -> None:
        self._result = result

    @property
    def result(self) -> ToolResult:
        """The tool's `ToolResult`, artifacts included."""
        return self._result

    @property
    def content(self) -> str:
        return self._result.content

    @property
    def artifacts(self) -> RunOnlyArtifacts:
        """The run-only artifacts; every serialised form of the carrier drops them."""
        return RunOnlyArtifacts(self._result.artifacts)

    def __str__(self) -> str:
        return self._result.content

    def __repr__(self) -> str:
        return f"ResultOutput({self._result!r})"

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return (str, (self._result.content,))

    def __reduce_ex__(self, protocol: object) -> tuple[type[str], tuple[str]]:
        return self.__reduce__()

    def __copy__(self) -> ResultOutput:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ResultOutput:
        return self


class _ErrorResult(Exception):
    """A `ToolResult.error` on its way through the SDK's tool-failure path."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.content)
        self.result = result


def _hand_over(value: object, where: str, bounds: BoundsOption) -> ResultOutput:
    result = at_the_seam(value, where, bounds)
    if result.is_error:
        raise _ErrorResult(result)
    return ResultOutput(result)


def _wrap(func: Callable[..., Any], bounds: BoundsOption) -> Callable[..., Any]:
    """`func` returning a `ResultOutput`, with the signature `function_tool` reads from `func`."""
    where = f"tool {getattr(func, '__qualname__', repr(func))}"
    wrapper: Callable[..., Any]
    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def call_async(*args: Any, **kwargs: Any) -> ResultOutput:
            return _hand_over(await func(*args, **kwargs), where, bounds)

        wrapper = call_async
    else:

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> ResultOutput:
            return _hand_over(func(*args, **kwargs), where, bounds)

        wrapper = call
    # The SDK reads the return annotation only to build an output schema; the model's
    # output is text. A copy: `wraps` shares `__annotations__` with `func`.
    wrapper.__annotations__ = {**getattr(func, "__annotations__", {}), "return": str}
    signed: Any = wrapper
    signed.__signature__ = inspect.signature(func).replace(return_annotation=str)
    return wrapper


class _Unset:
    pass


_UNSET: Final = _Unset()


def _failure_function(user: ErrorFunction | _Unset | None) -> ErrorFunction:
    async def failure(ctx: RunContextWrapper[Any], error: Exception) -> str | None:
        if isinstance(error, _ErrorResult):
            return error.result.content
        if isinstance(user, _Unset):
            return default_tool_error_function(ctx, error)
        if user is None:  # the SDK then re-raises, as `failure_error_function=None` does
            return None
        text = user(ctx, error)
        message: str | None = await text if inspect.isawaitable(text) else text
        return message

    return failure


def _extractor(user: Extractor | None) -> Extractor:
    async def extract(data: FunctionToolCustomDataContext) -> Mapping[str, Any] | None:
        extra: Any = None
        if user is not None:
            extra = user(data)
            if inspect.isawaitable(extra):
                extra = await extra
        output = data.output
        # Anything but the tool's own result is a failure: its error result, an exception
        # the SDK reported to the model, or an output guardrail's rejection.
        if not isinstance(output, ResultOutput):
            record = {"is_error": True, **RunOnlyArtifacts().to_json()}
        elif output.artifacts:
            record = {"is_error": False, **output.artifacts.to_json()}
        else:  # no record, as for a tool returning the str: the stored state is the same
            result: Mapping[str, Any] | None = extra
            return result
        return {**(extra or {}), CUSTOM_DATA_KEY: record}

    return extract


def _refuse_programmatic(options: Mapping[str, Any]) -> None:
    if "programmatic" in (options.get("allowed_callers") or ()):
        raise ValueError(
            "result_tool: programmatic callers take a JSON value, not a ToolResult; "
            "use agents.function_tool for this tool"
        )


def result_tool(
    func: Callable[..., Any] | None = None, /, *, bounds: BoundsOption = "default", **options: Any
) -> Any:
    """`agents.function_tool` for a function that returns a `ToolResult` (or a plain str).

    Use it bare (`@result_tool`) or with `function_tool`'s options
    (`@result_tool(name_override=..., failure_error_function=...)`). A
    `failure_error_function` and a `custom_data_extractor` you pass still run: the first for
    exceptions your tool raises, the second's mapping is merged into `custom_data`.
    `bounds` bounds each result: a `Bounds`, `None` (off), or "default" (read at each call).
    """
    check_bounds(bounds, "result_tool()")
    _refuse_programmatic(options)
    failure = _failure_function(options.pop("failure_error_function", _UNSET))
    extract = _extractor(options.pop("custom_data_extractor", None))

    def build(target: Callable[..., Any]) -> FunctionTool:
        return function_tool(
            _wrap(target, bounds),
            failure_error_function=failure,
            custom_data_extractor=extract,
            **options,
        )

    if func is not None:
        return build(func)
    return build
