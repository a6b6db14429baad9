"""One module per rule. A check is a `Check` subclass whose `visit_<Node>` methods the value
flow calls after it has labelled that node; adding a rule means adding a module here and a
Markdown file in `rules/`, nothing else."""

from __future__ import annotations

import ast
import importlib
import os
from functools import cache

from toolwire.lint.analysis.context import Visitors
from toolwire.lint.checks.base import Check


@cache
def all_checks() -> tuple[Check, ...]:
    # A listing of the package's own directory (a wheel is unpacked): pkgutil costs more
    # to import than the listing.
    names = {f.partition(".")[0] for f in os.listdir(__path__[0]) if f.endswith(".py")}
    for name in sorted(n for n in names if n.startswith("tw")):
        importlib.import_module(f"{__name__}.{name}")
    return tuple(cls() for cls in sorted(Check.__subclasses__(), key=lambda c: c.code))


@cache
def visitors(select: tuple[str, ...], ignore: tuple[str, ...]) -> Visitors:
    """Node type → the bound visit methods of the enabled checks."""
    from toolwire.lint.config import code_enabled

    table: Visitors = {}
    for check in all_checks():
        if not code_enabled(check.code, select, ignore):
            continue
        for attribute in dir(check):
            if attribute.startswith("visit_"):
                node_type = getattr(ast, attribute[6:])
                table.setdefault(node_type, []).append(getattr(check, attribute))
    return table
