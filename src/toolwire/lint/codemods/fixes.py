"""`toolwire check --fix` / `--diff`: the wire-content rewrites of the findings a check
reported, made as migrate makes them.

The same `WireContentCommand`, handed the check's own findings (so a code the user
ignored or suppressed is never fixed), and the same guards: the output must parse and
its encoding round-trip, and the file is written only if it still holds the bytes that
were checked (`finish.put`, through `toolwire.lint.writes`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from toolwire.lint.codemods.finish import broken, encode_like, put
from toolwire.lint.codemods.outcome import (
    FileOutcome,
    Mode,
    codemod_context,
    guarded,
    run_with_metadata,
)
from toolwire.lint.codemods.reports import FIX
from toolwire.lint.codemods.runner import read_cst
from toolwire.lint.config import Config
from toolwire.lint.engine import parse
from toolwire.lint.findings import Finding, internal_error

__all__ = ["FixTask", "fix_file", "fixable"]


def fixable(findings: Sequence[Finding]) -> list[Finding]:
    """The findings a fix rewrites: those the checks mark with the wire-content fix."""
    return [f for f in findings if f.fix == FIX]


@dataclass(frozen=True, slots=True)
class FixTask:
    """One file's fixes; pickled to worker processes."""

    path: str  # where it is read and written
    display: str  # how findings and diff headers name it
    config: Config
    findings: tuple[Finding, ...]  # as reported: filtered by select, ignore and noqa
    data: bytes  # the bytes the findings are of
    mode: Mode  # "write" or "diff"


def fix_file(task: FixTask) -> FileOutcome:
    """Rewrite one file's fixable findings; never raises (a crash is a TW000 for the file)."""
    return guarded(functools.partial(_fix, task), task.display)


def _fix(task: FixTask, outcome: FileOutcome) -> None:
    from toolwire.lint.codemods.wire_content import WireContentCommand

    name, data = task.display, task.data
    read = read_cst(data, name, outcome)
    if read is None:
        return
    text, tree = read
    command = WireContentCommand(
        codemod_context(name), config=task.config, findings=fixable(task.findings)
    )
    new_text: str = run_with_metadata(command, tree).code
    outcome.sinks, outcome.str_calls = command.report.sinks, command.report.str_calls
    for finding in command.report.unmatched:
        outcome.errors.append(
            internal_error(
                name,
                f"no expression at the {finding.code} span; that fix was not made",
                finding.line,
                finding.column,
            )
        )
    if new_text == text:
        return
    new_tree, problem = parse(new_text, name)
    if new_tree is None:
        outcome.errors.append(broken(name, problem))
        return
    new_data = encode_like(data, text, new_text, name, outcome)
    if new_data is not None and new_data != data:
        put(Path(task.path), data, new_data, task.mode, outcome)
