"""The syntax layer: module facts, intraprocedural value flow, and the checks."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolwire.analysis import labels as L
from toolwire.config import Config
from toolwire.findings import Finding
from toolwire.prefilter import Prefilter

if TYPE_CHECKING:
    from toolwire.analysis.modules import Link


def relevant(text: str, config: Config, known_tools: frozenset[str] = frozenset()) -> bool:
    """A cheap text test: False means no check can fire, so the module is skipped."""
    return Prefilter.of(config, known_tools).may_find(text)


_UNPROMPTED = L.TAINT | L.TOOL | L.TOOLS
_MAX_MARKED = 64  # past this many names worth following, the whole module is analysed


def irrelevant_units(
    tree: ast.Module, lines: Sequence[str], markers: tuple[str, ...]
) -> frozenset[int] | None:
    """Top-level functions and classes (by id) that cannot produce a finding: the module
    pre-filter applied to each of them. A unit is relevant when its text names a marker, or
    a name that a relevant top-level statement defines (a helper returning a result, a
    class with a result field, a global bound to one), to a fixpoint; module-level
    statements other than definitions are always analysed. None: too many names to follow,
    analyse everything."""
    keys = list(markers)
    pending = []
    for node in tree.body:
        decorators = getattr(node, "decorator_list", None)
        start = min(node.lineno, *(d.lineno for d in decorators)) if decorators else node.lineno
        text = "\n".join(lines[start - 1 : node.end_lineno or node.lineno])
        if any(key in text for key in keys):
            keys.extend(_defined(node))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            pending.append((node, text, [node.name]))
    changed = True
    while changed and pending:
        if len(keys) - len(markers) > _MAX_MARKED:
            return None
        changed = False
        still = []
        for node, text, names in pending:
            if any(key in text for key in keys[len(markers) :]):
                keys.extend(names)
                changed = True
            else:
                still.append((node, text, names))
        pending = still
    return frozenset(id(node) for node, _, _ in pending)


def _defined(node: ast.stmt) -> list[str]:
    """Names a top-level statement binds, also inside `if`/`try`/`with` blocks."""
    from toolwire.analysis.facts import statements

    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    names = []
    for inner in statements([node]):
        if isinstance(inner, ast.Import | ast.ImportFrom):  # `import ToolResult as TR`
            names += [(a.asname or a.name).partition(".")[0] for a in inner.names]
        elif isinstance(inner, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
            names += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(inner.name)
    return names


def analyse(
    tree: ast.Module,
    lines: Sequence[str],
    path: str,
    config: Config,
    *,
    module: str | None = None,
    known_tools: frozenset[str] = frozenset(),
    link: Link | None = None,
) -> list[Finding]:
    """Findings for one module. With `link` (a `toolwire check` run), the tools and
    functions that the modules it imports export are known, and its own exports are
    stored in `link.exports`."""
    from toolwire.analysis.facts import ModuleFacts
    from toolwire.analysis.flow import Context, Flow
    from toolwire.checks import visitors

    imported = {}
    if link is not None:
        known_tools |= link.tools
        imported = link.functions
    # An imported function that returns a result unprompted is a marker too; one that only
    # passes on what it is given needs a marker elsewhere to be given anything.
    markers = known_tools
    if imported:
        markers |= frozenset(n for n, e in imported.items() if e.returns & _UNPROMPTED)
    if not relevant("\n".join(lines), config, markers):
        if link is not None and link.demanded:
            facts = ModuleFacts(tree, config, module, known_tools)
            checks = visitors(config.select, config.ignore)
            flow = Flow(Context(facts, lines, path), checks, imported)
            flow.prepare(tree)
            link.exports = flow.exports(link.demanded)
        return []
    facts = ModuleFacts(tree, config, module, known_tools)
    ctx = Context(facts, lines, path)
    skip = irrelevant_units(tree, lines, Prefilter.of(config, markers).markers)
    flow = Flow(ctx, visitors(config.select, config.ignore), imported)
    flow.module(tree, skip)
    if link is not None:
        link.exports = flow.exports(link.demanded)
    return list(ctx.findings.values())
