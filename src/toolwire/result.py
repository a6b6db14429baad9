"""The typed tool result (ADR-108) and its run-only artifacts.

``ToolResult.content`` is the only path to a wire string. Artifacts are run-scoped:
they reach traces, inspectors and audit copies (``audit_record()``), never the
provider wire, and never resumable state, which is why neither type pickles.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, NoReturn, SupportsIndex, final

__all__ = ["ArtifactType", "ToolArtifact", "ToolResult"]

_PREVIEW_CHARS = 60

# Set by toolwire.guard while it is installed: it sees each result that has artifacts.
_artifact_hook: Callable[[ToolResult], None] | None = None
_NOT_RESUMABLE = "artifacts are run-only and never resumable state (ADR-108); {} cannot be pickled"


def _preview(text: str) -> str:
    if len(text) <= _PREVIEW_CHARS:
        return repr(text)
    return f"{text[:_PREVIEW_CHARS]!r}… ({len(text)} chars)"


class ArtifactType(StrEnum):
    """The artifact types every consumer knows. The set is open: any non-empty str works."""

    TABLE = "table"  # {"columns": list[str], "rows": list[list[str]]}
    TEXT = "text"  # {"text": str}; also the "artifacts omitted" marker


def _str_list(value: object, what: str) -> list[str]:
    # A bare str is a Sequence of str; refusing it catches table("x", "ab", ...).
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{what} must be a list of str, got {type(value).__name__}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise TypeError(f"{what}[{index}] must be a str, got {type(item).__name__}")
    return list(value)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ToolArtifact:
    """A structured, run-only side channel of a tool result.

    ``type`` is an ``ArtifactType`` or any other non-empty str (a known value is
    normalised to the enum member). ``data`` is JSON-like; it is not validated here
    because the seam (``toolwire.bounds``) decides what to do with unencodable data.
    The artifact itself is immutable, but ``data`` is kept as given (shallow).

    Equality compares type, label and data; the hash uses type and label only, so an
    artifact with dict data is still hashable and equal artifacts hash equally.
    """

    type: str
    label: str
    data: Any

    def __post_init__(self) -> None:
        kind: object = self.type
        if not isinstance(kind, str):
            raise TypeError(f"artifact type must be a str, got {type(kind).__name__}")
        if not kind:
            raise ValueError("artifact type must be a non-empty str")
        if not isinstance(self.label, str):
            raise TypeError(f"artifact label must be a str, got {type(self.label).__name__}")
        normalised: str = str.__str__(kind)
        if normalised in ArtifactType._value2member_map_:
            normalised = ArtifactType(normalised)
        object.__setattr__(self, "type", normalised)

    @classmethod
    def table(
        cls, label: str, columns: Sequence[str], rows: Sequence[Sequence[str]]
    ) -> ToolArtifact:
        """A TABLE artifact; every row must be a list of str exactly as wide as ``columns``."""
        cols = _str_list(columns, "columns")
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
            raise TypeError(f"rows must be a list of lists of str, got {type(rows).__name__}")
        checked: list[list[str]] = []
        for index, row in enumerate(rows):
            cells = _str_list(row, f"rows[{index}]")
            if len(cells) != len(cols):
                raise ValueError(
                    f"rows[{index}] has {len(cells)} cells but there are {len(cols)} columns"
                )
            checked.append(cells)
        return cls(ArtifactType.TABLE, label, {"columns": cols, "rows": checked})

    @classmethod
    def text(cls, label: str, text: str) -> ToolArtifact:
        """A TEXT artifact holding ``{"text": text}``."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        return cls(ArtifactType.TEXT, label, {"text": text})

    def to_dict(self) -> dict[str, Any]:
        """``{"type", "label", "data"}`` with ``type`` as a plain str."""
        return {"type": str.__str__(self.type), "label": self.label, "data": self.data}

    def __repr__(self) -> str:
        # Data is attacker-influenceable and may be secret: never show it.
        return f"ToolArtifact(type={str.__str__(self.type)!r}, label={_preview(self.label)})"

    def __hash__(self) -> int:
        return hash((self.type, self.label))

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        raise TypeError(_NOT_RESUMABLE.format("ToolArtifact"))

    def __reduce__(self) -> NoReturn:
        raise TypeError(_NOT_RESUMABLE.format("ToolArtifact"))

    def __copy__(self) -> ToolArtifact:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ToolArtifact:
        return ToolArtifact(self.type, self.label, copy.deepcopy(self.data, memo))


_NO_STRING_FORM = (
    "ToolResult has no string form; use result.content for the wire (artifacts never reach it)"
)


@final
class ToolResult:
    """What a tool returns: one wire string, an error flag and run-only artifacts.

    Build one with ``ToolResult.text(content, *artifacts)`` or
    ``ToolResult.error(content)``; the class cannot be called or subclassed.
    Instances are immutable and have no ``str()``, ``format()`` or ``bytes()`` form,
    so nothing but ``.content`` can become a wire string by accident.

    Equality and hashing are by value (content, is_error, artifacts).
    """

    __slots__ = ("artifacts", "content", "is_error")

    content: str
    is_error: bool
    artifacts: tuple[ToolArtifact, ...]

    def __new__(cls, *args: object, **kwargs: object) -> ToolResult:
        raise TypeError(
            "ToolResult cannot be constructed directly; "
            "use ToolResult.text(content, *artifacts) or ToolResult.error(content)"
        )

    def __init_subclass__(cls, **kwargs: object) -> None:
        raise TypeError("ToolResult is final and cannot be subclassed")

    @classmethod
    def _make(cls, content: str, is_error: bool, artifacts: tuple[ToolArtifact, ...]) -> ToolResult:
        if not isinstance(content, str):
            raise TypeError(f"content must be a str, got {type(content).__name__}")
        for index, artifact in enumerate(artifacts):
            if not isinstance(artifact, ToolArtifact):
                raise TypeError(
                    f"artifact {index} must be a ToolArtifact, got {type(artifact).__name__}"
                )
        self = object.__new__(cls)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "is_error", is_error)
        object.__setattr__(self, "artifacts", artifacts)
        if artifacts and _artifact_hook is not None:
            _artifact_hook(self)
        return self

    @classmethod
    def text(cls, content: str, *artifacts: ToolArtifact) -> ToolResult:
        """A successful result; ``content`` goes to the wire, ``artifacts`` never do."""
        return cls._make(content, False, artifacts)

    @classmethod
    def error(cls, content: str, /) -> ToolResult:
        """A failed result. It takes no artifacts: a failing tool cannot leak a half-built one."""
        return cls._make(content, True, ())

    def to_flowdrop(self) -> dict[str, Any]:
        """The FlowDrop result shape (RT-TOOL-1); ``artifacts`` only when there are some."""
        if self.is_error:
            return {"success": False, "data": None, "error": self.content}
        shape: dict[str, Any] = {"success": True, "data": {"content": self.content}, "error": None}
        if self.artifacts:
            shape["artifacts"] = [
                {"type": str.__str__(a.type), "payload": a.data} for a in self.artifacts
            ]
        return shape

    def audit_record(self) -> dict[str, Any]:
        """The run-only copy for traces and audit logs, artifacts included."""
        return {
            "content": self.content,
            "is_error": self.is_error,
            "artifacts": [artifact.to_dict() for artifact in self.artifacts],
        }

    def __repr__(self) -> str:
        # Types and labels only: artifact data may be secret.
        shown = ", ".join(repr(a) for a in self.artifacts)
        return (
            f"<ToolResult is_error={self.is_error} content={_preview(self.content)} "
            f"artifacts={len(self.artifacts)} [{shown}]>"
        )

    def __str__(self) -> NoReturn:
        raise TypeError(_NO_STRING_FORM)

    def __format__(self, format_spec: str) -> NoReturn:
        raise TypeError(_NO_STRING_FORM)

    def __bytes__(self) -> NoReturn:
        raise TypeError(_NO_STRING_FORM)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolResult):
            return NotImplemented
        return (self.content, self.is_error, self.artifacts) == (
            other.content,
            other.is_error,
            other.artifacts,
        )

    def __hash__(self) -> int:
        return hash((self.content, self.is_error, self.artifacts))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"ToolResult is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"ToolResult is immutable; cannot delete {name!r}")

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        raise TypeError(_NOT_RESUMABLE.format("ToolResult"))

    def __reduce__(self) -> NoReturn:
        raise TypeError(_NOT_RESUMABLE.format("ToolResult"))

    def __copy__(self) -> ToolResult:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ToolResult:
        return ToolResult._make(self.content, self.is_error, copy.deepcopy(self.artifacts, memo))
