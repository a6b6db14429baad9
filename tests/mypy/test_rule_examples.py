"""Every rules/ example that claims the mypy layer, through real mypy with the plugin.

All examples go into one project (one module per example, in the package `examples`)
and one mypy run per parser; the assertions are then parametrized per example.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from mypy_harness import Run, fixture_table, make_project, run_mypy

from toolwire.lint.catalog import Example, Rule, catalog


@dataclass(frozen=True)
class Spec:
    rule: Rule
    example: Example
    number: int  # counted per rule and kind, as in the other layers' tests

    @property
    def id(self) -> str:
        return f"{self.rule.code}-{self.example.kind}-{self.number}"

    def __str__(self) -> str:
        return self.id

    @property
    def module(self) -> str:
        return f"examples/{self.rule.code.lower()}_{self.example.kind}_{self.number}.py"


def _specs() -> list[Spec]:
    found = []
    for rule in catalog().values():
        numbers: Counter[str] = Counter()
        for example in rule.examples:
            numbers[example.kind] += 1
            if example.kind in ("flagged", "clean") and "mypy" in example.layers:
                found.append(Spec(rule, example, numbers[example.kind]))
    return found


SPECS = _specs()
PARSERS = {"native": "--native-parser", "legacy": "--no-native-parser"}


def _groups() -> dict[str, list[Spec]]:
    """Examples whose rule overrides the config need a project of their own."""
    groups: dict[str, list[Spec]] = {}
    for spec in SPECS:
        assert not spec.rule.example_module, "example-module is not supported by this harness"
        key = repr(sorted(spec.rule.config.items()))
        groups.setdefault(key, []).append(spec)
    return groups


@pytest.fixture(scope="module", params=sorted(PARSERS))
def runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, shared_cache: Path
) -> dict[str, Run]:
    """Spec id -> the mypy run that checked it (one run per config group)."""
    by_spec: dict[str, Run] = {}
    for number, specs in enumerate(_groups().values()):
        root = tmp_path_factory.mktemp(f"rules-{request.param}-{number}")
        table = fixture_table(**dict(specs[0].rule.config))
        config = make_project(root, {spec.module: spec.example.code for spec in specs}, table=table)
        run = run_mypy(
            root, ["examples"], config=config, cache_dir=shared_cache, args=[PARSERS[request.param]]
        )
        assert not run.internal_errors(), run.stdout + run.stderr
        for spec in specs:
            by_spec[spec.id] = run
    return by_spec


def test_every_mypy_rule_has_examples() -> None:
    for rule in catalog().values():
        if "mypy" in rule.layers:
            kinds = {s.example.kind for s in SPECS if s.rule.code == rule.code}
            assert kinds == {"flagged", "clean"}, f"{rule.code} has mypy examples of {kinds}"


@pytest.mark.parametrize("spec", [s for s in SPECS if s.example.kind == "flagged"], ids=str)
def test_flagged(spec: Spec, runs: dict[str, Run]) -> None:
    got = runs[spec.id].toolwire(spec.module)
    assert got == Counter(spec.example.expected()), _explain(spec, runs[spec.id])


@pytest.mark.parametrize("spec", [s for s in SPECS if s.example.kind == "clean"], ids=str)
def test_clean(spec: Spec, runs: dict[str, Run]) -> None:
    assert runs[spec.id].toolwire(spec.module) == Counter(), _explain(spec, runs[spec.id])


def _explain(spec: Spec, run: Run) -> str:
    lines = [m for m in run.stdout.splitlines() if m.startswith(spec.module)]
    numbered = "\n".join(f"{i:3} {t}" for i, t in enumerate(spec.example.code.splitlines(), 1))
    return f"{spec.id} ({spec.rule.source}:{spec.example.line})\n{numbered}\n" + "\n".join(lines)
