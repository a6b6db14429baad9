"""The JSON report; its schema is `report.schema.json` beside this module.

Paths and messages are escaped as in the text format (`toolwire.lint.findings.escape`): the same
string everywhere, and valid UTF-8 even for a file name that is not.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import Report

VERSION = 1


def finding_dict(finding: Finding, fingerprint: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "code": finding.code,
        "path": escape(finding.path),
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line or finding.line,
        "end_column": finding.end_column or finding.column,
        "message": escape(finding.message),
        "fingerprint": fingerprint,
    }
    if finding.fix:
        data["fix"] = finding.fix
    return data


def document(report: Report) -> dict[str, Any]:
    return {
        "version": VERSION,
        "findings": [
            finding_dict(f, p) for f, p in zip(report.findings, report.fingerprints(), strict=True)
        ],
        "errors": [{"path": escape(e.path), "message": escape(e.message)} for e in report.errors],
        "notes": [escape(note) for note in report.notes],
        "summary": report.summary,
    }


def render(report: Report, out: TextIO, err: TextIO) -> None:
    json.dump(document(report), out, indent=2, ensure_ascii=False)
    out.write("\n")
