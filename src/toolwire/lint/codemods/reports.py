"""What the codemods report, importable without loading LibCST."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from toolwire.lint.codemods.crossfile import Member
from toolwire.lint.findings import Finding

__all__ = ["FIX", "REVIEW_CODES", "MethodEvent", "Span", "ToolReturnsReport", "split_findings"]

FIX = "wire-content"
# Without a fix, these are left for a person: an unproven sink payload (TW301, TW302), and
# a result used as text that the rewrite cannot settle and that raises or leaks once the
# tool returns a ToolResult (TW106 a str method; TW201-TW204 stringified, formatted,
# serialised, printed or logged).
REVIEW_CODES = frozenset({"TW106", "TW201", "TW202", "TW203", "TW204", "TW301", "TW302"})
Span = tuple[int, int, int, int]  # 1-based line/column, end exclusive (as in Finding)


@dataclass(frozen=True, slots=True)
class MethodEvent:
    """A tool method the run migrated or skipped; `reason` says why it was skipped."""

    path: str
    line: int
    cls: str
    method: str
    reason: str = ""

    @property
    def name(self) -> str:
        """`Class.method`, or a function tool's name."""
        return f"{self.cls}.{self.method}" if self.cls else self.method

    def as_text(self) -> str:
        return f"{self.path}:{self.line}: {self.name}: {self.reason}"


@dataclass(slots=True)
class ToolReturnsReport:
    migrated: list[MethodEvent] = field(default_factory=list)
    skipped: list[MethodEvent] = field(default_factory=list)
    text: int = 0
    error: int = 0
    marked: int = 0  # of `error`: returns made errors by their text (`error-markers`)
    known_tools: set[str] = field(default_factory=set)  # dotted names of tool classes
    # For the other files of the run (`crossfile`), by dotted name:
    wired: set[str] = field(default_factory=set)  # classes the adapter base now wraps
    results: dict[str, bool] = field(default_factory=dict)  # `Class.method`: returns a result
    kept: dict[str, str] = field(default_factory=dict)  # class -> a tool method left as is
    members: list[Member] = field(default_factory=list)  # class tool methods, for families


def span_of(finding: Finding) -> Span:
    return (finding.line, finding.column, finding.end_line, finding.end_column)


def split_findings(findings: Iterable[Finding]) -> tuple[set[Span], set[Span], list[Finding]]:
    """(payload spans, `str(x)` spans, findings left for review)."""
    content: set[Span] = set()
    stringify: set[Span] = set()
    review: list[Finding] = []
    for finding in findings:
        if finding.fix == FIX and finding.code == "TW201":
            stringify.add(span_of(finding))
        elif finding.fix == FIX and finding.code == "TW301":
            content.add(span_of(finding))
        elif finding.code in REVIEW_CODES and finding.fix is None:
            review.append(finding)
    # A TW301 at a `str(x)` that TW201 rewrites is settled by that rewrite.
    review = [f for f in review if span_of(f) not in stringify]
    return content - stringify, stringify, review


_OPENS, _CLOSES = ("[", "(", "{"), ("]", ")", "}", ",")


def one_line(code: str) -> str:
    """Source text spread over lines (a bracketed annotation), joined into one line."""
    lines = code.splitlines()
    if len(lines) <= 1:
        return code
    out = lines[0].rstrip().removesuffix("\\").rstrip()
    for line in lines[1:]:
        line = line.strip().removesuffix("\\").strip()
        if line:
            out += ("" if out.endswith(_OPENS) or line.startswith(_CLOSES) else " ") + line
    return out
