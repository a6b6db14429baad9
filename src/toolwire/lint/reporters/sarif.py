"""SARIF 2.1.0, as read by GitHub code scanning and other SARIF viewers."""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import metadata
from pathlib import Path, PurePath
from typing import Any, TextIO
from urllib.parse import quote

from toolwire import __version__
from toolwire.lint.catalog import Rule, catalog
from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import Report

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"
FINGERPRINT = "toolwire/v1"  # the JSON report's `fingerprint`


@cache
def information_uri() -> str:
    try:
        urls = metadata.metadata("toolwire").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() in {"homepage", "documentation", "source"} and url.strip():
            return str(url.strip())
    return "https://pypi.org/project/toolwire/"


def rule_descriptor(rule: Rule) -> dict[str, Any]:
    what = rule.section("What it does") or rule.summary
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _plain(rule.summary)},
        "fullDescription": {"text": _plain(what)},
        "help": {"text": _plain(rule.body.strip()), "markdown": rule.body.strip()},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": [rule.family]},
    }


def _plain(markdown: str) -> str:
    return markdown.replace("`", "")


def artifact_location(path: str) -> dict[str, Any]:
    """A relative URI under %SRCROOT% (the working directory), or a file URI outside it.

    Quoted from the name's bytes, so a name that is not UTF-8 keeps them (`%FF`).
    """
    pure = PurePath(path)
    if not pure.is_absolute():
        pure = PurePath(os.path.normpath(pure))
        if pure.parts[:1] != ("..",):
            return {"uri": quote(os.fsencode(pure.as_posix())), "uriBaseId": SRCROOT}
        # `../lib/x.py` climbs out of %SRCROOT%, which code scanning cannot place.
        pure = PurePath(os.path.abspath(path))
    return {"uri": Path(pure).as_uri()}


def result(finding: Finding, rule_index: dict[str, int], fingerprint: str) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": finding.line, "startColumn": finding.column}
    if finding.end_line:
        region["endLine"] = finding.end_line
        region["endColumn"] = max(finding.end_column, 1)
    data: dict[str, Any] = {"ruleId": finding.code}
    if finding.code in rule_index:
        data["ruleIndex"] = rule_index[finding.code]
    data |= {
        "level": "error",
        "message": {"text": escape(finding.message)},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(finding.path),
                    "region": region,
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT: fingerprint},
    }
    if finding.fix:
        data["properties"] = {"fix": finding.fix}
    return data


def document(report: Report, root: Path | None = None) -> dict[str, Any]:
    rules = list(catalog().values())
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    base = (root or Path(os.getcwd())).as_uri().rstrip("/") + "/"
    notifications = [
        {
            "level": "error",
            "message": {"text": escape(error.message)},
            "locations": [
                {"physicalLocation": {"artifactLocation": artifact_location(error.path)}}
            ],
        }
        for error in report.errors
    ] + [{"level": "note", "message": {"text": escape(note)}} for note in report.notes]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolwire",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": information_uri(),
                        "rules": [rule_descriptor(rule) for rule in rules],
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": base}},
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {
                        "executionSuccessful": not report.errors,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": [
                    result(f, rule_index, p)
                    for f, p in zip(report.findings, report.fingerprints(), strict=True)
                ],
            }
        ],
    }


def render(report: Report, out: TextIO, err: TextIO) -> None:
    json.dump(document(report), out, indent=2, ensure_ascii=False)
    out.write("\n")
