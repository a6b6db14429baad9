"""What every adapter shares: the result check, the seam's bounds, the run-only carrier."""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from toolwire.bounds import Bounds
from toolwire.result import ToolArtifact, ToolResult

BoundsOption: TypeAlias = Bounds | Literal["default"] | None
"""An adapter's `bounds=`: a `Bounds`, `None` (off), or "default" (`default_bounds()`)."""

_default = Bounds()


def default_bounds() -> Bounds:
    """The bounds of every adapter call not given its own (ADR-108's unless changed)."""
    return _default


def set_default_bounds(bounds: Bounds | None) -> Bounds:
    """Make `bounds` (`None`: `Bounds.off()`) the default of every adapter; returns the old one.

    Read at each call, so it also applies to tools built before it was set.
    """
    global _default
    previous = _default
    if bounds is not None and not isinstance(bounds, Bounds):
        raise TypeError(
            f"set_default_bounds(): bounds must be a toolwire.bounds.Bounds or None, "
            f"got {type(bounds).__name__}"
        )
    _default = bounds or Bounds.off()
    return previous


def check_bounds(option: object, where: str) -> BoundsOption:
    """`option` if it is a `BoundsOption`, else a one-line `TypeError` naming `where`."""
    if option is None or isinstance(option, Bounds):
        return option
    if isinstance(option, str) and option == "default":
        return "default"
    raise TypeError(
        f"{where}: bounds must be a toolwire.bounds.Bounds, None or 'default', "
        f"got {type(option).__name__}"
    )


def resolve_bounds(option: BoundsOption, where: str = "bounds") -> Bounds:
    """The `Bounds` an option stands for, the default read now.

    Checked again here: an attribute (smolagents' `bounds`) can be set to anything later.
    """
    option = check_bounds(option, where)
    if option is None:
        return Bounds.off()
    if isinstance(option, Bounds):
        return option
    return _default


def at_the_seam(value: object, where: str, bounds: BoundsOption) -> ToolResult:
    """What a tool returned, as the result that leaves for the framework: checked, bounded."""
    return resolve_bounds(bounds, where).apply(as_result(value, where))


def as_result(value: object, where: str) -> ToolResult:
    """The `ToolResult` a wrapped tool returned; a plain `str` is taken as `.text(value)`.

    Accepting `str` lets a code base migrate one tool at a time. Anything else is a bug in
    the tool, reported with the tool's name instead of being stringified onto the wire.
    """
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, str):
        return ToolResult.text(value)
    raise TypeError(
        f"{where} returned {type(value).__name__}, not a ToolResult: "
        "return ToolResult.text(...) or ToolResult.error(...)"
    )


class RunOnlyArtifacts(tuple[ToolArtifact, ...]):
    """The artifacts of one result, held for the live run (trace, inspector, audit log).

    Frameworks write their run-only channel into resumable state (LangGraph checkpoints,
    message history, `RunState`). Artifacts are never resumable state (ADR-108), so every
    serialised form of this carrier drops them: it pickles to an empty carrier, and
    `to_json()` is a payload-free stub. The live object, and an in-process deep copy, keep
    them.
    """

    __slots__ = ()

    def __new__(cls, artifacts: tuple[ToolArtifact, ...] = ()) -> RunOnlyArtifacts:
        return super().__new__(cls, artifacts)

    def __reduce__(self) -> tuple[type[RunOnlyArtifacts], tuple[()]]:
        return (RunOnlyArtifacts, ())

    def __reduce_ex__(self, protocol: object) -> tuple[type[RunOnlyArtifacts], tuple[()]]:
        return (RunOnlyArtifacts, ())

    def __deepcopy__(self, memo: dict[int, Any]) -> RunOnlyArtifacts:
        return self

    def to_json(self) -> dict[str, Any]:
        """The stub a serialiser may write: how many artifacts there were, no payload."""
        return {"toolwire_run_only_artifacts": len(self)}

    def records(self) -> list[dict[str, Any]]:
        """The artifacts as `{type, label, data}` dicts, for a trace or an audit log."""
        return [artifact.to_dict() for artifact in self]
