"""What a run hands to a reporter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple, Protocol, TextIO

from toolwire.lint.findings import Finding, escape

INPUT_ERROR = "TW000"


class RunError(NamedTuple):  # not a dataclass: cheaper to build at start-up; sorts the same
    """A problem that is not about the code: a crash of toolwire itself on one file."""

    path: str
    message: str

    def as_text(self) -> str:
        return f"toolwire: {escape(self.message)}"


class Report:
    """A run's results, put in order once here: findings and errors sorted, notes once each.

    Every reporter writes them in this order, as they are.
    """

    # A plain class: a dataclass compiles its methods from text at every start-up.
    __slots__ = ("colour", "errors", "files_checked", "findings", "fixed", "notes", "quiet")

    def __init__(
        self,
        findings: Iterable[Finding] = (),
        errors: Iterable[RunError] = (),
        files_checked: int = 0,
        notes: Iterable[str] = (),
        quiet: bool = False,  # `--quiet`: the remarks for people are internal errors only
        fixed: int | None = None,  # `--fix`: how many findings the fixes removed
        colour: bool = False,  # `--color`: the text format styles what it writes to a terminal
    ) -> None:
        self.findings = sorted(findings)
        self.errors = sorted(errors)
        self.files_checked = files_checked
        self.notes = list(dict.fromkeys(notes))
        self.quiet = quiet
        self.fixed = fixed
        self.colour = colour

    def fingerprints(self) -> list[str]:
        """One per finding, in order: stable when code moves (no line or column in it).

        The path, the code and the message (which quotes the code it is about), and which
        of the findings with those three this one is, counted from the top of the file.
        """
        import hashlib  # only the machine formats need it: not on the text path's start-up

        seen: Counter[tuple[str, str, str]] = Counter()
        prints = []
        for finding in self.findings:
            key = (escape(finding.path), finding.code, escape(finding.message))
            seen[key] += 1
            text = "\0".join((*key, str(seen[key])))
            prints.append(hashlib.sha256(text.encode("utf-8")).hexdigest())
        return prints

    @property
    def input_errors(self) -> int:
        return sum(f.code == INPUT_ERROR for f in self.findings)

    @property
    def files_with_findings(self) -> int:
        return len({f.path for f in self.findings})

    @property
    def summary(self) -> dict[str, object]:
        by_code = Counter(f.code for f in self.findings)
        summary: dict[str, object] = {
            "files_checked": self.files_checked,
            "files_with_findings": self.files_with_findings,
            "findings": len(self.findings),
            "input_errors": self.input_errors,
            "internal_errors": len(self.errors),
            "by_code": dict(sorted(by_code.items())),
        }
        if self.fixed is not None:
            summary["fixed"] = self.fixed
        return summary

    def summary_line(self) -> str:
        files = _plural(self.files_checked, "file")
        count = len(self.findings)
        if self.fixed is not None:
            # as ruff's "Found 6 errors (4 fixed, 2 remaining)"
            line = (
                f"toolwire: {_plural(count + self.fixed, 'finding')} ({self.fixed} fixed, "
                f"{count} remaining) in {files}"
            )
        elif count:
            line = f"toolwire: {_plural(count, 'finding')} in {self.files_with_findings} of {files}"
        else:
            line = f"toolwire: no findings in {files}"
        problems = []
        if self.input_errors:
            problems.append(_plural(self.input_errors, "input error"))
        if self.errors:
            problems.append(_plural(len(self.errors), "internal error"))
        return f"{line} ({', '.join(problems)})" if problems else line


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class Reporter(Protocol):
    """Writes a report: the document to `out`, human remarks to `err`."""

    def __call__(self, report: Report, out: TextIO, err: TextIO) -> None: ...
