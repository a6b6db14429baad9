"""JUnit XML, in the shape of ruff's `--output-format junit`: one testsuite per file with
findings, one testcase with a `<failure>` per finding (GitLab and Jenkins show one failure
per testcase), and a passing testcase when there is none.

The document is ASCII: every other character is a character reference, so it stays
valid whatever encoding the stream it goes to has. Paths and messages are escaped
(`toolwire.lint.findings.escape`) first, so no control character (which XML 1.0 cannot
hold at all) reaches it.
"""

from __future__ import annotations

import os
from itertools import groupby
from typing import TextIO
from xml.etree import ElementTree as ET

from toolwire.lint.findings import Finding, escape
from toolwire.lint.reporters.model import Report, RunError
from toolwire.lint.reporters.text import write_remarks

NAME = "toolwire"


def _classname(path: str) -> str:
    """As ruff's: the path without its suffix (`app/loop.py` -> `app/loop`)."""
    return os.path.splitext(path)[0]


def _case(suite: ET.Element, path: str, name: str, line: int, column: int) -> ET.Element:
    return ET.SubElement(
        suite,
        "testcase",
        name=name,
        classname=_classname(path),
        file=path,
        line=str(line),
        column=str(column),
    )


def _failure(suite: ET.Element, finding: Finding) -> None:
    path, message = escape(finding.path), escape(finding.message)
    case = _case(suite, path, f"{NAME}.{finding.code}", finding.line, finding.column)
    failure = ET.SubElement(case, "failure", message=message, type=finding.code)
    failure.text = f"{path}:{finding.line}:{finding.column}: {finding.code} {message}"


def _error(suite: ET.Element, error: RunError) -> None:
    case = _case(suite, escape(error.path), f"{NAME}.internal-error", 1, 1)
    text = escape(error.message)
    ET.SubElement(case, "error", message=text, type="internal-error").text = text


def _suite(parent: ET.Element, name: str, failures: int, errors: int) -> ET.Element:
    return ET.SubElement(
        parent,
        "testsuite",
        name=name,
        tests=str(failures + errors),
        disabled="0",
        errors=str(errors),
        failures=str(failures),
        package=NAME,
    )


def document(report: Report) -> str:
    failures, errors = len(report.findings), len(report.errors)
    root = ET.Element(
        "testsuites",
        name=NAME,
        tests=str(max(1, failures + errors)),
        failures=str(failures),
        errors=str(errors),
    )
    by_path: dict[str, tuple[list[Finding], list[RunError]]] = {}
    for path, same in groupby(report.findings, key=lambda f: f.path):
        by_path[path] = (list(same), [])
    for error in report.errors:
        by_path.setdefault(error.path, ([], []))[1].append(error)
    for path, (found, crashed) in sorted(by_path.items()):
        suite = _suite(root, escape(path), len(found), len(crashed))
        for finding in found:
            _failure(suite, finding)
        for error in crashed:
            _error(suite, error)
    if not by_path:  # as ruff: a report with no testcase reads as "no tests ran" in some CIs
        suite = _suite(root, NAME, 0, 0)
        suite.set("tests", "1")
        ET.SubElement(suite, "testcase", name="No findings", classname=NAME)
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def render(report: Report, out: TextIO, err: TextIO) -> None:
    out.write(document(report).encode("ascii", "xmlcharrefreplace").decode("ascii"))
    write_remarks(report, err)  # notes and the summary are for people: stderr


__all__ = ["document", "render"]
