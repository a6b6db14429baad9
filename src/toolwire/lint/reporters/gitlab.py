"""GitLab Code Quality: the JSON array the merge-request widget reads
(`artifacts: reports: codequality:`)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import INPUT_ERROR, Report
from toolwire.lint.reporters.text import write_remarks

# Wire (TW3xx) and artifact (TW4xx) findings reach the provider or run-only state.
_EGRESS = ("TW3", "TW4")


def issue(finding: Finding, fingerprint: str) -> dict[str, Any]:
    egress = finding.code.startswith(_EGRESS)
    return {
        "type": "issue",
        "check_name": finding.code,
        "description": f"{finding.code} {escape(finding.message)}",
        "categories": ["Security" if egress else "Bug Risk"],
        "fingerprint": fingerprint,
        "severity": "critical" if egress or finding.code == INPUT_ERROR else "major",
        "location": {
            "path": escape(finding.path),
            "lines": {"begin": finding.line, "end": finding.end_line or finding.line},
        },
    }


def render(report: Report, out: TextIO, err: TextIO) -> None:
    issues = [issue(f, p) for f, p in zip(report.findings, report.fingerprints(), strict=True)]
    json.dump(issues, out, indent=2, ensure_ascii=False)
    out.write("\n")
    write_remarks(report, err)  # the format has no place for errors and notes
