"""The pre-filters of the syntax layer: whether a module's text may hold a finding at
all, and which of its top-level functions and classes cannot."""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator

from toolwire.lint.analysis.names import statements
from toolwire.lint.config import Config
from toolwire.lint.prefilter import Prefilter, named_in


def relevant(text: str, config: Config, known_tools: frozenset[str] = frozenset()) -> bool:
    """A cheap text test: False means no check can fire, so the module is skipped."""
    return Prefilter.of(config, known_tools).may_find(text)


_MAX_MARKED = 64  # past this many names worth following, the whole module is analysed


def irrelevant_units(
    tree: ast.Module, text: str, markers: tuple[str, ...]
) -> frozenset[int] | None:
    """Top-level functions and classes (by id) that cannot produce a finding: the module
    pre-filter applied to each of them. A unit is relevant when its text names a marker, or
    a name that a relevant top-level statement defines (a helper returning a result, a
    class with a result field, a global bound to one), to a fixpoint; module-level
    statements other than definitions are always analysed. None: too many names to follow,
    analyse everything.

    Each key is searched for once in the whole text, and a hit is mapped to the statement
    whose lines hold it: the cost is in the hits, not in copying each statement's text."""
    nodes = tree.body
    firsts = []
    for node in nodes:
        decorators = getattr(node, "decorator_list", None)
        firsts.append(
            min(node.lineno, *(d.lineno for d in decorators)) if decorators else node.lineno
        )

    def holding(key: str) -> Iterator[int]:
        line, before, at = 1, 0, text.find(key)
        while at >= 0:
            line += text.count("\n", before, at)
            before = at
            index = bisect.bisect_right(firsts, line) - 1
            while index >= 0 and (nodes[index].end_lineno or nodes[index].lineno) >= line:
                yield index
                index -= 1
            at = text.find(key, at + 1)

    # a marker the text does not hold is no key, nor any name the module defines
    markers = tuple(named_in(text, markers))
    relevant: set[int] = set()
    seen = set(markers)
    work = list(markers)
    while work:
        key = work.pop()
        method = key[4:] if key.startswith("def ") else None
        for index in holding(key):
            if index in relevant or (method and not _declares(nodes[index], method)):
                continue
            relevant.add(index)
            for name in _defined(nodes[index]):
                if name not in seen:
                    if len(seen) - len(markers) >= _MAX_MARKED:
                        return None
                    seen.add(name)
                    work.append(name)
    return frozenset(
        id(node)
        for index, node in enumerate(nodes)
        if index not in relevant
        and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    )


def maybe_str_functions(tree: ast.Module) -> frozenset[int]:
    """Top-level functions annotated `-> str` (by any spelling): a factory call elsewhere
    in the module (`Agent(tools=[f])`) may make one a tool whose text names no marker."""
    return frozenset(
        id(node)
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.returns is not None
        and "str" in ast.unparse(node.returns)
    )


def _declares(node: ast.stmt, method: str) -> bool:
    """`node` defines a function `method` with a return annotation: a tool method marker
    (`def execute`) only makes a tool of a method declared to return `str` or a result, so
    the text `def execute_sql` or an unannotated `def execute` is no marker."""
    return any(
        isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)
        and inner.name == method
        and inner.returns is not None
        for inner in statements([node])
    )


def _defined(node: ast.stmt) -> list[str]:
    """Names a top-level statement binds, also inside `if`/`try`/`with` blocks."""
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
