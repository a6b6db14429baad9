"""What every adapter shares: the result check and the run-only artifact carrier."""

from __future__ import annotations

from typing import Any

from toolwire.result import ToolArtifact, ToolResult


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
