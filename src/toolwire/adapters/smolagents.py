"""smolagents tools that return a `ToolResult` (`pip install 'toolwire[smolagents]'`).

Subclass `ResultTool` instead of `smolagents.Tool`, or decorate with this module's
`@tool` instead of smolagents', and return a `ToolResult` from `forward`. A call bounds
it first (the tool's `bounds` attribute, `@tool(bounds=...)`, else
`toolwire.adapters.default_bounds()`), so everything below holds the bounded result:

- `content` is the observation: a call returns `ResultText`, a `str` (smolagents'
  `AgentText`) equal to `content`, which is what smolagents writes into the step's
  `observations` and so into every later model input.
- the artifacts ride on that same object as `ResultText.result`, which smolagents only
  hands out as `ToolOutput.output` in `agent.run(..., stream=True)`. `agent.memory` keeps
  the observation text, never the object, and a pickled `ResultText` is plain text.
- code the model wrote (a `CodeAgent`'s actions, run by smolagents' local interpreter)
  gets a plain `str` of `content` instead: nothing it holds leads to the artifacts.
- `ToolResult.error(...)` raises `ToolResultError`, which smolagents turns into the step's
  `AgentToolExecutionError`, as it does for any failing tool.
"""

# smolagents ships no type information (no py.typed): its classes are `Any` to mypy.
# mypy: disallow-subclassing-any=False

from __future__ import annotations

import functools
import inspect
import re
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, get_type_hints, overload

from smolagents import Tool  # type: ignore[import-untyped]
from smolagents import local_python_executor as _interpreter
from smolagents import tool as smolagents_tool
from smolagents.agent_types import (  # type: ignore[import-untyped]
    AgentText,
    handle_agent_input_types,
)

from toolwire.adapters._common import BoundsOption, RunOnlyArtifacts, at_the_seam, check_bounds
from toolwire.result import ToolResult

__all__ = ["ResultText", "ResultTool", "ToolResultError", "result_tool", "tool"]

# Module-qualified: `Tool.from_code` takes the first `Tool` subclass the module holds.
_BASE = "toolwire.adapters.smolagents.ResultTool"
_IMPORTS = "import toolwire.adapters.smolagents\nfrom toolwire import ToolArtifact, ToolResult\n"


class ToolResultError(Exception):
    """A tool returned `ToolResult.error(...)`; smolagents reports it as a tool failure."""

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.content)
        self.result = result


class ResultText(AgentText):
    """What a `ResultTool` call returns: the text `content`, with the result kept beside it.

    It is a `str` equal to `content`, so every place smolagents reads it as text sees
    exactly what the model may see. `result` (and `artifacts`) are for the live run only:
    pickling keeps the text and drops them, as `toolwire` does for all resumable state.
    """

    _result: ToolResult

    def __new__(cls, result: ToolResult) -> ResultText:
        self = str.__new__(cls, result.content)
        self._result = result
        return self

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.content)

    @property
    def result(self) -> ToolResult:
        """The `ToolResult` the tool returned, artifacts included."""
        return self._result

    @property
    def artifacts(self) -> RunOnlyArtifacts:
        """The result's artifacts, for a trace, an inspector or an audit log."""
        return RunOnlyArtifacts(self._result.artifacts)

    def __reduce__(self) -> tuple[type[AgentText], tuple[str]]:
        return (AgentText, (self._result.content,))

    def __reduce_ex__(self, protocol: Any) -> tuple[type[AgentText], tuple[str]]:
        return self.__reduce__()

    def __deepcopy__(self, memo: dict[int, Any]) -> ResultText:
        return self


def _called_by_model_code() -> bool:
    """Whether smolagents' local interpreter, running code a model wrote, is on the stack.

    That code gets the tool's return value and only dunder names are closed to it, so
    `r.result`, `getattr(r, "_result")` or `type(r).result.fget(r)` would all print the
    artifacts into the next observation. The interpreter calls the tool like any code
    does (no flag the model's code could not pass too), so its frames are what tell.
    """
    interpreter = vars(_interpreter)
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is interpreter:
            return True
        frame = frame.f_back
    return False


class ResultTool(Tool):
    """A smolagents `Tool` whose `forward` returns a `ToolResult`.

    Declare `name`, `description`, `inputs` and `output_type = "string"` as for any
    `Tool`; the model reads `content`, so the output is a string. As smolagents requires
    for `to_dict()` and `save()`, import what `forward` uses inside `forward`.

    `bounds` (class or instance attribute: a `Bounds`, `None` for off, or "default",
    `default_bounds()` at each call) bounds each result.

    A call returns a `ResultText`, except from code run by smolagents' local interpreter
    (a `CodeAgent`'s actions, written by the model): that code gets `content` as a plain
    `str`, so it has no way to the artifacts.
    """

    bounds: BoundsOption = "default"

    def __call__(self, *args: Any, sanitize_inputs_outputs: bool = False, **kwargs: Any) -> Any:
        if sanitize_inputs_outputs:
            args_list, kwargs = handle_agent_input_types(*args, **kwargs)
            args = tuple(args_list)
        # smolagents' output sanitising would str() the result: it is done here instead.
        value = super().__call__(*args, **kwargs)
        result = at_the_seam(value, f"smolagents tool {self.name!r}", self.bounds)
        if result.is_error:
            raise ToolResultError(result)
        if _called_by_model_code():
            # A plain copy of the text: a str subclass in `content` could carry more.
            return str.__str__(result.content)
        return ResultText(result)

    def to_dict(self) -> dict[str, Any]:
        """smolagents' `to_dict()`, with code that rebuilds a `ResultTool`."""
        data: dict[str, Any] = super().to_dict()
        code, count = re.subn(
            rf"^class {re.escape(type(self).__name__)}\(Tool\):",
            lambda match: match.group(0).replace("(Tool)", f"({_BASE})"),
            data["code"],
            count=1,
            flags=re.M,
        )
        if count != 1:
            raise ValueError(f"smolagents tool {self.name!r}: no tool class in to_dict() code")
        data["code"] = _IMPORTS + code
        data["requirements"] = sorted({*data["requirements"], "toolwire"})
        return data


@overload
def tool(function: Callable[..., Any], /, *, bounds: BoundsOption = ...) -> ResultTool: ...


@overload
def tool(
    function: None = None, /, *, bounds: BoundsOption = ...
) -> Callable[[Callable[..., Any]], ResultTool]: ...


def tool(
    function: Callable[..., Any] | None = None, /, *, bounds: BoundsOption = "default"
) -> ResultTool | Callable[[Callable[..., Any]], ResultTool]:
    """smolagents' `@tool` for a function that returns a `ToolResult`.

    The function needs the docstring and type hints smolagents' `@tool` needs; its return
    hint is `ToolResult`, and the tool's `output_type` is `"string"` (the model reads
    `content`). `@tool(bounds=...)` sets the tool's `bounds` (a saved tool does not keep
    it: reloaded, it has the default).
    """
    check_bounds(bounds, "tool()")
    if function is None:
        return lambda target: tool(target, bounds=bounds)
    return _make_tool(function, bounds)


def _make_tool(function: Callable[..., Any], bounds: BoundsOption) -> ResultTool:

    # smolagents writes the return hint into `to_dict()` code; as a string it needs no
    # import there (the code imports `ToolResult` anyway). Parameter hints are resolved
    # here, where the function's own module is known.
    @functools.wraps(function)
    def forward(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    forward.__annotations__ = {**get_type_hints(function), "return": "ToolResult"}
    forward.__signature__ = inspect.signature(function).replace(  # type: ignore[attr-defined]
        return_annotation="ToolResult"
    )
    made = smolagents_tool(forward)
    simple = type(made)
    # Keep smolagents' class name: its to_dict() recognises a `@tool` tool by it.
    cls = type(simple.__name__, (ResultTool, simple), {"output_type": "string"})
    cls.__qualname__ = simple.__qualname__
    cls.__module__ = function.__module__
    instance: ResultTool = cls()
    if bounds != "default":
        instance.bounds = bounds
    return instance


# The one naming pattern of the adapters (docs/frameworks/index.md); the old name stays.
result_tool = tool
