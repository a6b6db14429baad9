"""GitHub Actions workflow commands: one `::error` annotation per finding."""

from __future__ import annotations

from typing import TextIO

from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import Report
from toolwire.lint.reporters.text import write_remarks


def escape_data(value: str) -> str:
    """The workflow-command rules for a message."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    properties = {
        "file": finding.path,
        "line": str(finding.line),
        "col": str(finding.column),
        "endLine": str(finding.end_line or finding.line),
        "endColumn": str(finding.end_column or finding.column),
        "title": finding.code,
    }
    # `escape` first, as in every format: no control character reaches the log.
    joined = ",".join(
        f"{key}={escape_property(escape(value))}" for key, value in properties.items()
    )
    return f"::error {joined}::{escape_data(escape(finding.message))}"


def render(report: Report, out: TextIO, err: TextIO) -> None:
    for finding in report.findings:
        out.write(annotation(finding) + "\n")
    for error in report.errors:
        where = escape_property(escape(error.path))
        out.write(f"::error file={where}::{escape_data(error.as_text())}\n")
    for note in report.notes:
        out.write(f"::notice title=toolwire::{escape_data(escape(note))}\n")
    write_remarks(report, err)
