"""Materialise the rules/ examples as real projects, for the tests of every layer.

Each example gets its own directory: a copy of `tests/fixtures/app`, a `pyproject.toml`
whose `[tool.toolwire]` table is the fixture's with the rule's `[config]` laid over it,
and the example itself, at `<example-module as a path>.py` or `example.py`.
"""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from toolwire.lint.catalog import Example, Rule, examples

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class CaseSpec:
    """One example of one rule, named by the catalog (`TW301-flagged-2`)."""

    rule: Rule
    example: Example

    @property
    def id(self) -> str:
        return self.example.id

    @property
    def relative_file(self) -> Path:
        if self.rule.example_module:
            return Path(*self.rule.example_module.split(".")).with_suffix(".py")
        return Path("example.py")

    def expected(self) -> Counter[tuple[int, str]]:
        return Counter(self.example.expected())


@dataclass(frozen=True)
class Case:
    spec: CaseSpec
    root: Path

    @property
    def file(self) -> Path:
        return self.root / self.spec.relative_file

    @property
    def id(self) -> str:
        return self.spec.id


def cases(kinds: tuple[str, ...], layer: str) -> list[CaseSpec]:
    """Every example of these kinds that `layer` claims, in catalog order."""
    return [CaseSpec(rule, example) for rule, example in examples(kinds, layer)]


def toolwire_table(overrides: Mapping[str, Any]) -> dict[str, Any]:
    fixture = tomllib.loads((FIXTURES / "pyproject.toml").read_text(encoding="utf-8"))
    return {**fixture["tool"]["toolwire"], **overrides}


def pyproject_text(table: Mapping[str, Any]) -> str:
    return tomlkit.dumps({"tool": {"toolwire": dict(table)}})


def materialise(spec: CaseSpec, root: Path, code: str | None = None) -> Case:
    """Write the project for `spec` under `root` (created); `code` replaces the example's."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FIXTURES / "app", root / "app", dirs_exist_ok=True)
    text = pyproject_text(toolwire_table(spec.rule.config))
    assert tomllib.loads(text)["tool"]["toolwire"] == toolwire_table(spec.rule.config)
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
    case = Case(spec, root)
    case.file.parent.mkdir(parents=True, exist_ok=True)
    case.file.write_text(spec.example.code if code is None else code, encoding="utf-8")
    return case


def materialise_all(specs: Iterable[CaseSpec], base: Path) -> dict[str, Case]:
    return {spec.id: materialise(spec, base / spec.id) for spec in specs}
