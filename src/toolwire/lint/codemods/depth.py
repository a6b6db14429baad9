"""How deep migrate lets an expression nest before it refuses a file."""

from __future__ import annotations

import ast

# LibCST's native parser is quadratic in nesting depth and overflows the C stack (a
# segfault) some thousands deep; its codegen and metadata recurse once per level. CPython's
# parser judges first and refuses what is absurd; deeper than this, migrate refuses too.
MAX_DEPTH = 1000
LIBCST_RECURSION = 30_000  # Python frames cost no C stack on 3.11+


def nesting(tree: ast.AST, limit: int = MAX_DEPTH) -> int | None:
    """The line of a node nested more than `limit` deep in `tree`, or None. Linear time.

    `a and b and c` is one node in `ast` but a nested one in LibCST: it counts per operand.
    A node on one line of width w holds at most about 2w levels, so short nodes (nearly
    all of them) are not entered.
    """
    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, 1)]
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", None) or line
        if depth > limit:
            return line
        if isinstance(node, ast.expr | ast.stmt) and node.end_lineno == node.lineno:
            if depth + 2 * ((node.end_col_offset or 0) - node.col_offset) + 2 <= limit:
                continue
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        stack.extend((child, depth + step, line) for child in ast.iter_child_nodes(node))
    return None
