"""Every before/after pair of codemods/*.md, run through the LibCST command with CodemodTest.

Also the `Fixed` pairs of the rules whose fix is a codemod (rules/*.md), end to end.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from codemod_helpers import (
    CODEMODS_DIR,
    RULES_DIR,
    Pair,
    fixture_config,
    module_path,
    pairs,
    project,
)
from libcst.codemod import Codemod, CodemodContext, CodemodTest

from toolwire.lint.catalog import parse_rule
from toolwire.lint.codemods.runner import migrate_paths
from toolwire.lint.codemods.tool_returns import ToolReturnsCommand
from toolwire.lint.codemods.wire_content import WireContentCommand
from toolwire.lint.config import Config, load_config

TOOL_RETURNS = pairs(CODEMODS_DIR / "tool-returns.md")
WIRE_CONTENT = pairs(CODEMODS_DIR / "wire-content.md")


class _Case(CodemodTest):
    def runTest(self) -> None:  # pragma: no cover - unittest wants one
        pass


def _setup(pair: Pair, tmp_path: Path) -> tuple[Config, str]:
    root = project(tmp_path, pair.config)
    target = root / module_path(pair.module)
    target.parent.mkdir(parents=True, exist_ok=True)
    for parent in target.relative_to(root).parents:
        init = root / parent / "__init__.py"
        if parent != Path(".") and not init.exists():
            init.write_text("", encoding="utf-8")
    target.write_text(CodemodTest.make_fixture_data(pair.before), encoding="utf-8")
    return load_config(root / "pyproject.toml"), str(target)


def _run(transform: type[Codemod], pair: Pair, tmp_path: Path, **kwargs: Any) -> None:
    config, filename = _setup(pair, tmp_path)
    case = _Case()
    case.TRANSFORM = transform
    context = CodemodContext(filename=filename)
    case.assertCodemod(pair.before, pair.after, context_override=context, config=config, **kwargs)
    after = CodemodTest.make_fixture_data(pair.after)
    ast.parse(after)
    # Idempotent: the after text is a fixed point.
    again = transform(CodemodContext(filename=filename), config=config, **kwargs)
    assert again.transform_module(cst.parse_module(after)).code == after
    skipped = sorted(
        w.split("skipped ", 1)[1].split(":", 1)[0] for w in context.warnings if "skipped " in w
    )
    assert skipped == sorted(pair.option_list("skipped")), context.warnings


@pytest.mark.parametrize("pair", TOOL_RETURNS, ids=[p.id for p in TOOL_RETURNS])
def test_tool_returns_example(pair: Pair, tmp_path: Path) -> None:
    _run(ToolReturnsCommand, pair, tmp_path)


WIRE_CASES = [pytest.param(p, id=p.id) for p in WIRE_CONTENT]


@pytest.mark.parametrize("pair", WIRE_CASES)
def test_wire_content_example(pair: Pair, tmp_path: Path) -> None:
    known = frozenset(pair.option_list("known-tools"))
    _run(WireContentCommand, pair, tmp_path, known_tools=known)
    config, filename = _setup(pair, tmp_path / "again")
    command = WireContentCommand(
        CodemodContext(filename=filename), config=config, known_tools=known
    )
    command.transform_module(cst.parse_module(CodemodTest.make_fixture_data(pair.before)))
    assert len(command.report.review) == int(pair.options.get("review", "0")), command.report.review
    assert not command.report.unmatched


def test_every_doc_has_examples() -> None:
    assert len(TOOL_RETURNS) >= 15
    assert len(WIRE_CONTENT) >= 5


def _rule_pairs() -> list[tuple[str, Pair]]:
    found = []
    for path in sorted(RULES_DIR.glob("TW*.md")):
        rule = parse_rule(path.read_text(encoding="utf-8"), path.name)
        if rule.fix in ("tool-returns", "wire-content"):
            base = {**fixture_config(), **rule.config}
            found += [(rule.fix, p) for p in pairs(path, base)]
    return found


RULE_PAIRS = _rule_pairs()


@pytest.mark.parametrize(("fix", "pair"), RULE_PAIRS, ids=[p.id for _, p in RULE_PAIRS])
def test_rule_fix_example(fix: str, pair: Pair, tmp_path: Path) -> None:
    """The `Fixed` pair of a rule is what `toolwire migrate --codemod <fix>` does to it."""
    name = module_path(pair.module)
    root = project(tmp_path, pair.config, {name: pair.before})
    config = load_config(root / "pyproject.toml")
    summary = migrate_paths([str(root / name)], lambda _: config, codemods=(fix,))
    assert not summary.all_errors
    assert (root / name).read_text(encoding="utf-8") == pair.after
