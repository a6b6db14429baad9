"""`path:line:col: TWnnn message`, one finding a line; the summary goes to stderr."""

from __future__ import annotations

from typing import TextIO

from toolwire.reporters.model import Report


def render(report: Report, out: TextIO, err: TextIO) -> None:
    for finding in report.sorted_findings():
        out.write(finding.as_text() + "\n")
    write_remarks(report, err)


def write_remarks(report: Report, err: TextIO) -> None:
    """Internal errors, notes and the summary line, for the formats read by people."""
    for error in sorted(report.errors):
        err.write(error.as_text() + "\n")
    for note in dict.fromkeys(report.notes):
        err.write(f"toolwire: note: {note}\n")
    err.write(report.summary_line() + "\n")
