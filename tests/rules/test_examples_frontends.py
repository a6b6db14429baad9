"""Every flagged and clean example in rules/ through the syntax layer's three front-ends.

Each example runs as a real module of its own project (see `rule_examples.py`). A flagged
example must give exactly the `# expect:` (line, code) multiset; a clean one nothing.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from frontend_helpers import (
    assert_no_traceback,
    run_flake8,
    text_findings,
    toolwire_command,
)
from rule_examples import Case, CaseSpec, cases, materialise_all

from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source, module_name

SPECS = cases(("flagged", "clean"), "syntax")
IDS = [spec.id for spec in SPECS]

Found = dict[str, Counter[tuple[int, str]]]


@pytest.fixture(scope="module")
def materialised(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Case]]:
    base = tmp_path_factory.mktemp("rule-examples")
    return base, materialise_all(SPECS, base)


def _by_case(base: Path, rows: Iterable[tuple[str, int, str]], cases: dict[str, Case]) -> Found:
    """Group (path relative to base, line, code) rows by the example they belong to."""
    files = {case.file.relative_to(base).as_posix(): case.id for case in cases.values()}
    found: Found = {case_id: Counter() for case_id in cases}
    for path, line, code in rows:
        relative = (base / path).resolve().relative_to(base.resolve()).as_posix()
        assert relative in files, f"a finding outside the examples: {path}:{line} {code}"
        found[files[relative]][(line, code)] += 1
    return found


@pytest.fixture(scope="module")
def flake8_found(materialised: tuple[Path, dict[str, Case]]) -> Found:
    base, cases = materialised
    files = [str(case.file.relative_to(base)) for case in cases.values()]
    result = run_flake8(["--select", "TW", *files], base)
    assert_no_traceback(result)
    assert result.returncode in (0, 1), result.stderr
    rows = [(path, line, code) for path, line, _, code in text_findings(result.stdout)]
    return _by_case(base, rows, cases)


@pytest.fixture(scope="module")
def cli_found(materialised: tuple[Path, dict[str, Case]]) -> Found:
    base, cases = materialised
    files = [str(case.file.relative_to(base)) for case in cases.values()]
    result = subprocess.run(
        [*toolwire_command(), "check", "--format", "json", *files],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(result.stdout)
    assert data["summary"]["files_checked"] == len(cases)
    assert not data["errors"], data["errors"]
    rows = [(f["path"], f["line"], f["code"]) for f in data["findings"]]
    return _by_case(base, rows, cases)


def _assert_expected(spec: CaseSpec, found: Counter[tuple[int, str]]) -> None:
    expected = spec.expected()
    if spec.example.kind == "flagged":
        assert expected, f"{spec.id}: a flagged example needs at least one `# expect:` comment"
    else:
        assert not expected, f"{spec.id}: a clean example cannot expect findings"
    source = spec.example.code.splitlines()
    missing = "".join(f"\n  missing {c} at {n}: {source[n - 1]}" for n, c in expected - found)
    extra = "".join(
        f"\n  unexpected {c} at {n}: {source[n - 1] if 0 < n <= len(source) else ''}"
        for n, c in found - expected
    )
    assert found == expected, f"{spec.id} ({spec.rule.source}:{spec.example.line}){missing}{extra}"


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_engine(spec: CaseSpec, materialised: tuple[Path, dict[str, Case]]) -> None:
    case = materialised[1][spec.id]
    config = load_config(case.root / "pyproject.toml")
    findings = check_source(
        case.file.read_bytes(), str(case.file), config, module=module_name(case.file, config)
    )
    _assert_expected(spec, Counter((f.line, f.code) for f in findings))


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_flake8(spec: CaseSpec, flake8_found: Found) -> None:
    _assert_expected(spec, flake8_found[spec.id])


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_toolwire_check(spec: CaseSpec, cli_found: Found) -> None:
    _assert_expected(spec, cli_found[spec.id])


def test_every_rule_with_a_syntax_layer_has_examples() -> None:
    rules = {spec.rule.code for spec in SPECS}
    claimed = {
        spec.rule.code
        for spec in cases(("flagged", "clean", "before", "after"), "syntax")
        if spec.rule.code != "TW000"
    }
    assert claimed <= rules
    assert len(SPECS) >= 2 * len(rules)


def test_materialised_project_applies_the_rule_config(
    materialised: tuple[Path, dict[str, Case]],
) -> None:
    with_config = [spec for spec in SPECS if spec.rule.config]
    assert with_config, "some rule overrides the fixture config (TW303's seam)"
    for spec in with_config:
        case = materialised[1][spec.id]
        written = tomllib.loads((case.root / "pyproject.toml").read_text(encoding="utf-8"))
        table = written["tool"]["toolwire"]
        for key, value in spec.rule.config.items():
            assert table[key] == value, (spec.id, key)
        config = load_config(case.root / "pyproject.toml")
        if spec.rule.example_module:
            assert module_name(case.file, config) == spec.rule.example_module
