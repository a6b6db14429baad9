"""Parsing a module for the codemods: CPython's parser judges first, then LibCST, within
limits LibCST can keep (depth, recursion); every refusal is a one-line finding."""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from toolwire.lint.engine import deep_walks, parse
from toolwire.lint.findings import Finding, unreadable

__all__ = ["LIBCST_RECURSION", "MAX_DEPTH", "nesting", "parse_cst", "unvalidated"]


def _syntax_error(path: str, exc: Exception) -> Finding:
    import libcst as cst

    if isinstance(exc, cst.ParserSyntaxError):
        message = exc.message.splitlines()[0] if exc.message else "invalid syntax"
        return unreadable(path, f"cannot parse: {message}", exc.raw_line, exc.raw_column + 1)
    return unreadable(path, f"cannot parse: {exc}")


# LibCST's native parser is quadratic in nesting depth and overflows the C stack (a
# segfault) some thousands deep; its codegen and metadata recurse once per level. CPython's
# parser judges first and refuses what is absurd; deeper than this, migrate refuses too.
MAX_DEPTH = 1000
LIBCST_RECURSION = 30_000  # Python frames cost no C stack on 3.11+


def nesting(tree: ast.AST, limit: int = MAX_DEPTH, text: str | None = None) -> int | None:
    """The line of a node nested more than `limit` deep in `tree`, or None. Linear time.

    `a and b and c` is one node in `ast` but a nested one in LibCST: it counts per operand.
    A node w characters long holds at most about 2w levels, so short nodes (nearly all
    of them) are not entered: on one line by its columns, over several (given `text`,
    which `tree` was parsed from) by the offsets of its lines.
    """
    starts: list[int] | None = None
    if text is not None:
        # offset of line k (1-based) at index k; a column is in bytes, never fewer than
        # the characters it counts, so the length below is never short
        starts = [0, 0, *accumulate(len(line) + 1 for line in text.split("\n"))]
    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, 1)]
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", None) or line
        if depth > limit:
            return line
        if isinstance(node, ast.expr | ast.stmt):
            end = node.end_lineno or node.lineno
            if end == node.lineno:
                length = (node.end_col_offset or 0) - node.col_offset
            elif starts is not None and end < len(starts):
                length = starts[end] - starts[node.lineno] + (node.end_col_offset or 0)
            else:
                length = limit
            if depth + 2 * length + 2 <= limit:
                continue
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        stack.extend((child, depth + step, line) for child in ast.iter_child_nodes(node))
    return None


def _unchecked(self: object) -> None:
    pass


@contextlib.contextmanager
def unvalidated() -> Iterator[None]:
    """LibCST's nodes built without their checks, within: each node runs `_validate` as it
    is made (`CSTNode.__post_init__`), a fifth of a parse, which proves nothing of a tree its
    parser built from code CPython accepted ("PERF: ... avoid validating the tree when
    parsing a file", LibCST's own note there). The nodes the rewrites build are checked as
    ever, and what migrate writes is parsed again before it is written."""
    from libcst._nodes.base import CSTNode

    check = CSTNode.__dict__.get("__post_init__")
    if check is None:  # a LibCST without it: nothing to leave out
        yield
        return
    CSTNode.__post_init__ = _unchecked  # type: ignore[method-assign]
    try:
        yield
    finally:
        CSTNode.__post_init__ = check  # type: ignore[method-assign]


def parse_cst(
    text: str, path: str, tree: ast.Module | None = None, source: str | None = None
) -> tuple[Any, Finding | None]:
    """The LibCST tree of `text`; `tree` is the `ast` of `source` (default `text`), whose
    nesting is judged (a skeleton's text is parsed, the whole module's depth judged)."""
    import libcst as cst

    if tree is None:
        tree, problem = parse(text, path)
        if tree is None:
            return None, problem
    line = nesting(tree, text=text if source is None else source)
    if line is not None:
        return None, unreadable(
            path, f"cannot migrate: an expression nested over {MAX_DEPTH} levels deep", line
        )
    try:
        with deep_walks(LIBCST_RECURSION), unvalidated():
            return cst.parse_module(text), None
    except cst.ParserSyntaxError as exc:
        # CPython parsed it, so this is a LibCST limit, not the user's syntax error.
        feed = _form_feed_line(text)
        if feed is not None:
            why = "a form feed in the indentation, which LibCST cannot parse"
            return None, unreadable(path, f"cannot migrate: {why}; the file is left as it is", feed)
        return None, _syntax_error(path, exc)
    except (RecursionError, MemoryError) as exc:
        return None, unreadable(path, f"cannot parse: {type(exc).__name__}")


def _form_feed_line(text: str) -> int | None:
    for number, line in enumerate(text.split("\n"), 1):  # splitlines() cuts at \f
        if "\f" in line[: len(line) - len(line.lstrip())]:
            return number
    return None
