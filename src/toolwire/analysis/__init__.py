"""The syntax layer: module facts, intraprocedural value flow, and the checks."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from toolwire.config import Config
from toolwire.findings import Finding


def analyse(
    tree: ast.Module,
    lines: Sequence[str],
    path: str,
    config: Config,
    *,
    module: str | None = None,
    known_tools: frozenset[str] = frozenset(),
) -> list[Finding]:
    return []
