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
    from toolwire.model import index

    model = index(config.model)
    names = [
        *config.result_names,
        *config.artifact_classes,
        *config.tool_bases,
        *known_tools,
        *model.source_owners,
    ]
    return tuple(
        dict.fromkeys(
            (
                *(n.rpartition(".")[2] for n in names),
                *(f"def {m}" for m in config.tool_methods),
                *model.source_methods,
                *sorted(model.run_only),
            )
        )
    )


def relevant(text: str, config: Config, known_tools: frozenset[str] = frozenset()) -> bool:
    """A cheap text test: False means no check can fire, so the module is skipped."""
    return any(marker in text for marker in _markers(config, known_tools))


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
) -> list[Finding]:
    if not relevant("\n".join(lines), config, known_tools):
        return []
    from toolwire.analysis.facts import ModuleFacts
    from toolwire.analysis.flow import Context, Flow
    from toolwire.checks import visitors

    facts = ModuleFacts(tree, config, module, known_tools)
    ctx = Context(facts, lines, path)
    skip = irrelevant_units(tree, lines, _markers(config, known_tools))
    Flow(ctx, visitors(config.select, config.ignore)).module(tree, skip)
    return list(ctx.findings.values())
