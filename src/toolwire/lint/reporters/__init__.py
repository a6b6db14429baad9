"""Output formats for `toolwire check`: one module per format, looked up by name and
imported only when used (SARIF needs the rule catalog)."""

from __future__ import annotations

import importlib

from toolwire.lint.reporters.model import Report, Reporter, RunError

FORMATS: dict[str, str] = {
    "text": "text",
    "json": "json_report",
    "sarif": "sarif",
    "github": "github",
    "gitlab": "gitlab",
    "junit": "junit",
}


def reporter(name: str) -> Reporter:
    render: Reporter = importlib.import_module(f"toolwire.lint.reporters.{FORMATS[name]}").render
    return render


__all__ = ["FORMATS", "Report", "Reporter", "RunError", "reporter"]
