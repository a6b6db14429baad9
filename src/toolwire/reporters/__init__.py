"""Output formats for `toolwire check`: one module per format, looked up by name."""

from __future__ import annotations

from toolwire.reporters import github, json_report, sarif, text
from toolwire.reporters.model import Report, Reporter, RunError

REPORTERS: dict[str, Reporter] = {
    "text": text.render,
    "json": json_report.render,
    "sarif": sarif.render,
    "github": github.render,
}

__all__ = ["REPORTERS", "Report", "Reporter", "RunError"]
