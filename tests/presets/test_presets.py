"""Every framework preset case through `toolwire check`, flake8 and mypy with the plugin.

Each preset gets a project of its own whose only configuration is
`[tool.toolwire] presets = ["<preset>"]` (plus the mypy table that loads the plugin, and
`ignore = ["TW101"]`: the cases are about the channels, and their tools return `str` on
purpose; TW101 on every tool shape has its own examples in rules/TW101.md), with
its cases as modules of a package `cases`; each front-end runs once per project. A flagged
case must give exactly its `# expect:` (line, code) multiset, a clean one nothing.
"""

from __future__ import annotations

import json
import subprocess
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
from mypy_harness import run_mypy
from preset_cases import PRESETS, Case, all_cases, cases, docs_cases

Found = dict[str, Counter[tuple[int, str]]]
CASES = all_cases()
SYNTAX = [case for case in CASES if "syntax" in case.layers]
MYPY = [case for case in CASES if "mypy" in case.layers]
MYPY_TABLE = '[tool.mypy]\nplugins = ["toolwire.mypy"]\n'


def _module(case: Case) -> str:
    return f"cases/{case.name}.py"


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """preset -> a project configured with that preset alone, holding its cases."""
    roots = {}
    for preset in PRESETS:
        root = tmp_path_factory.mktemp(f"preset-{preset}")
        config = f'[tool.toolwire]\npresets = ["{preset}"]\nignore = ["TW101"]\n\n{MYPY_TABLE}'
        (root / "pyproject.toml").write_text(config, encoding="utf-8")
        (root / "cases").mkdir()
        (root / "cases" / "__init__.py").write_text("", encoding="utf-8")
        for case in cases(preset):
            (root / _module(case)).write_text(case.source, encoding="utf-8")
        roots[preset] = root
    return roots


def _rows_by_case(preset: str, rows: Iterable[tuple[str, int, str]]) -> Found:
    found: Found = {case.name: Counter() for case in cases(preset)}
    for path, line, code in rows:
        name = Path(path).stem
        assert name in found, f"a finding outside the cases: {path}:{line} {code}"
        found[name][(line, code)] += 1
    return found


@pytest.fixture(scope="module")
def cli_found(projects: dict[str, Path]) -> dict[str, Found]:
    out = {}
    for preset, root in projects.items():
        result = subprocess.run(
            [*toolwire_command(), "check", "--format", "json", "cases"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (0, 1), result.stderr
        data = json.loads(result.stdout)
        assert not data["errors"], data["errors"]
        rows = [(f["path"], f["line"], f["code"]) for f in data["findings"]]
        out[preset] = _rows_by_case(preset, rows)
    return out


@pytest.fixture(scope="module")
def flake8_found(projects: dict[str, Path]) -> dict[str, Found]:
    out = {}
    for preset, root in projects.items():
        result = run_flake8(["--select", "TW", "cases"], root)
        assert_no_traceback(result)
        assert result.returncode in (0, 1), result.stderr
        rows = [(path, line, code) for path, line, _, code in text_findings(result.stdout)]
        out[preset] = _rows_by_case(preset, rows)
    return out


@pytest.fixture(scope="module")
def mypy_found(projects: dict[str, Path], framework_mypy_cache: Path) -> Found:
    """case id -> the plugin's (line, code) findings; one mypy run per preset."""
    out: Found = {}
    for preset, root in projects.items():
        mine = [case for case in MYPY if case.preset == preset]
        if not mine:
            continue
        run = run_mypy(
            root,
            [_module(case) for case in mine],
            config=root / "pyproject.toml",
            cache_dir=framework_mypy_cache,
        )
        assert not run.internal_errors(), run.stdout + run.stderr
        for case in mine:
            out[case.id] = run.toolwire(_module(case))
    return out


def _xfail(request: pytest.FixtureRequest, case: Case, layer: str) -> None:
    why = case.xfail(layer)
    if why is not None:
        request.applymarker(pytest.mark.xfail(reason=why, strict=True))


def _assert_expected(case: Case, found: Counter[tuple[int, str]], layer: str) -> None:
    expected = case.expected()
    source = case.source.splitlines()

    def line(n: int) -> str:
        return source[n - 1].strip() if 0 < n <= len(source) else ""

    missing = "".join(f"\n  missing {c} at {n}: {line(n)}" for n, c in expected - found)
    extra = "".join(f"\n  unexpected {c} at {n}: {line(n)}" for n, c in found - expected)
    assert found == expected, f"{case.id} ({case.origin}), {layer}:{missing}{extra}"


@pytest.mark.parametrize("case", SYNTAX, ids=lambda c: c.id)
def test_toolwire_check(
    case: Case, cli_found: dict[str, Found], request: pytest.FixtureRequest
) -> None:
    _xfail(request, case, "syntax")
    _assert_expected(case, cli_found[case.preset][case.name], "toolwire check")


@pytest.mark.parametrize("case", SYNTAX, ids=lambda c: c.id)
def test_flake8(case: Case, flake8_found: dict[str, Found], request: pytest.FixtureRequest) -> None:
    _xfail(request, case, "syntax")
    _assert_expected(case, flake8_found[case.preset][case.name], "flake8")


@pytest.mark.parametrize("case", MYPY, ids=lambda c: c.id)
def test_mypy(case: Case, mypy_found: Found, request: pytest.FixtureRequest) -> None:
    _xfail(request, case, "mypy")
    _assert_expected(case, mypy_found[case.id], "mypy")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_flagged_and_clean_cases(preset: str) -> None:
    mine = cases(preset)
    assert any(case.flagged for case in mine), preset
    assert any(not case.flagged for case in mine), preset
    names = [case.name for case in mine]
    assert len(names) == len(set(names)), names


@pytest.mark.parametrize("preset", PRESETS)
def test_docs_page_shows_a_flagged_and_a_clean_example(preset: str) -> None:
    shown = docs_cases(preset)
    assert any(case.flagged for case in shown), f"docs/frameworks/{preset}.md: no flagged example"
    assert any(not case.flagged for case in shown), f"docs/frameworks/{preset}.md: no clean one"
