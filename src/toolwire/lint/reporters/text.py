"""`path:line:col: TWnnn message`, one finding a line; the summary goes to stderr.

Paths and messages are escaped (`toolwire.lint.findings.escape`): a file name cannot start a
line of its own or reach the terminal as a control sequence.
"""

from __future__ import annotations

from typing import TextIO

from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import Report


def render(report: Report, out: TextIO, err: TextIO) -> None:
    for finding in report.findings:
        out.write((_styled(finding) if report.colour else finding.as_text()) + "\n")
    write_remarks(report, err)


def _styled(finding: Finding) -> str:
    # ruff's styles: the path bold, the code red and bold
    path = f"\x1b[1m{escape(finding.path)}\x1b[0m"
    code = f"\x1b[1;31m{finding.code}\x1b[0m"
    return f"{path}:{finding.line}:{finding.column}: {code} {escape(finding.message)}"


def write_remarks(report: Report, err: TextIO) -> None:
    """Internal errors, notes and the summary line, for the formats read by people."""
    for error in report.errors:
        err.write(error.as_text() + "\n")
    if report.quiet:
        return
    for note in report.notes:
        err.write(f"toolwire: note: {escape(note)}\n")
    err.write(report.summary_line() + "\n")
