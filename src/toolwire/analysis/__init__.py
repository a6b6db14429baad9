"""The syntax layer: module facts, intraprocedural value flow, and the checks."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from functools import cache

from toolwire.config import Config
from toolwire.findings import Finding


@cache
def _markers(config: Config, known_tools: frozenset[str]) -> tuple[str, ...]:
    """Text that any module with something to report must contain."""
    names = [*config.result_classes, *config.artifact_classes, *config.tool_bases, *known_tools]
    return (
        *{n.rpartition(".")[2] for n in names},
        *(f"def {m}" for m in config.tool_methods),
        "artifacts",
    )


def relevant(text: str, config: Config, known_tools: frozenset[str] = frozenset()) -> bool:
    """A cheap text test: False means no check can fire, so the module is skipped."""
    return any(marker in text for marker in _markers(config, known_tools))


def analyse(
    tree: ast.Module,
    lines: Sequence[str],
    path: str,
    config: Config,
    *,
    module: str | None = None,
    known_tools: frozenset[str] = frozenset(),
) -> list[Finding]:
    if not relevant("\n".join(lines), config, known_tools):
        return []
    from toolwire.analysis.facts import ModuleFacts
    from toolwire.analysis.flow import Context, Flow
    from toolwire.checks import visitors

    facts = ModuleFacts(tree, config, module, known_tools)
    ctx = Context(facts, lines, path)
    Flow(ctx, visitors(config.select, config.ignore)).module(tree)
    return list(ctx.findings.values())
