"""`toolwire check --format junit` through the real command: the XML parses, has the shape
JUnit consumers read, carries every finding, and escapes what comes from file names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from frontend_helpers import BROKEN, CLEAN, CONFIG, LEAK, run_toolwire, write

# The JUnit XML schema (Jenkins' junit-10.xsd, which GitLab and ruff's output follow):
# element -> (children it may have, attributes it must have, attributes it may have).
SHAPE: dict[str, tuple[set[str], set[str], set[str]]] = {
    "testsuites": ({"testsuite"}, set(), {"name", "tests", "failures", "errors", "time"}),
    "testsuite": (
        {"testcase", "properties", "system-out", "system-err"},
        {"name", "tests"},
        {"failures", "errors", "disabled", "skipped", "time", "package", "id", "hostname"},
    ),
    "testcase": (
        {"failure", "error", "skipped", "system-out", "system-err"},
        {"name", "classname"},
        {"time", "status", "assertions", "file", "line", "column"},
    ),
    "failure": (set(), set(), {"message", "type"}),
    "error": (set(), set(), {"message", "type"}),
}


def _assert_shape(element: ET.Element) -> None:
    children, required, optional = SHAPE[element.tag]
    keys = set(element.keys())
    assert required <= keys <= required | optional, (element.tag, keys)
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        _assert_shape(child)
    if element.tag == "testcase":
        assert len([c for c in element if c.tag in ("failure", "error")]) <= 1
    if element.tag in ("testsuites", "testsuite"):
        cases = list(element.iter("testcase"))
        assert int(element.get("tests", "0")) == len(cases)
        assert int(element.get("failures", "0")) == len(list(element.iter("failure")))
        assert int(element.get("errors", "0")) == len(list(element.iter("error")))


def _junit(root: Path, status: int) -> ET.Element:
    done = run_toolwire(["check", "--format", "junit", "."], cwd=root)
    assert done.returncode == status, done.stderr
    assert done.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    done.stdout.encode("ascii")  # other characters are character references
    document = ET.fromstring(done.stdout)
    assert document.tag == "testsuites"
    _assert_shape(document)
    return document


def _findings(root: Path) -> list[dict[str, Any]]:
    done = run_toolwire(["check", "--format", "json", "."], cwd=root)
    findings: list[dict[str, Any]] = json.loads(done.stdout)["findings"]
    return findings


def test_junit_has_one_failure_per_finding_with_code_message_and_place(tmp_path: Path) -> None:
    files = {"pyproject.toml": CONFIG, "app/leak.py": LEAK, "clean.py": CLEAN, "b.py": BROKEN}
    root = write(tmp_path, files)
    document = _junit(root, 2)  # the TW000 of b.py is an input error
    findings = _findings(root)
    assert len(findings) == 3
    assert document.get("failures") == "3" and document.get("errors") == "0"
    cases = list(document.iter("testcase"))
    assert len(cases) == len(findings)
    for case, finding in zip(cases, findings, strict=True):
        [failure] = list(case)
        assert case.get("name") == f"toolwire.{finding['code']}"
        assert case.get("file") == finding["path"]
        assert (case.get("line"), case.get("column")) == (
            str(finding["line"]),
            str(finding["column"]),
        )
        assert failure.tag == "failure"
        assert failure.get("type") == finding["code"]
        assert failure.get("message") == finding["message"]
        place = f"{finding['path']}:{finding['line']}:{finding['column']}"
        assert failure.text == f"{place}: {finding['code']} {finding['message']}"
    suites = {s.get("name"): int(s.get("failures", "")) for s in document}
    assert suites == {"app/leak.py": 2, "b.py": 1}  # one suite per file with findings
    assert cases[0].get("classname") == "app/leak"


def test_a_clean_run_has_no_failure(tmp_path: Path) -> None:
    document = _junit(write(tmp_path, {"pyproject.toml": CONFIG, "clean.py": CLEAN}), 0)
    assert document.get("failures") == "0"
    assert list(document.iter("failure")) == [] and list(document.iter("error")) == []
    [case] = list(document.iter("testcase"))  # a report with no test reads as "none ran"
    assert case.get("name") == "No findings"


def test_names_and_messages_are_escaped(tmp_path: Path) -> None:
    name = 'we<&"ird\x1bé.py'
    root = write(tmp_path, {"pyproject.toml": CONFIG, name: LEAK})
    document = _junit(root, 1)
    [suite] = list(document)
    shown = 'we<&"ird\\x1bé.py'  # the escape every format applies, then XML's own
    assert suite.get("name") == shown
    cases = list(suite)
    assert {c.get("file") for c in cases} == {shown}
    messages = [c[0].get("message") or "" for c in cases]
    assert any('"' in m for m in messages)  # TW301's message quotes a dict key
    assert [c[0].text for c in cases] == [f"{shown}:5:12: TW201 {messages[0]}", cases[1][0].text]
    raw = run_toolwire(["check", "--format", "junit", "."], cwd=root).stdout
    assert "\x1b" not in raw and "&lt;&amp;&quot;" in raw and "&#233;" in raw
