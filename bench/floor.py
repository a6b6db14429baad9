"""The floors: read each listed file and parse it (`ast`), parse it and visit every node
with a plain `ast.NodeVisitor` (`visit`), or parse and regenerate it (LibCST).

    python bench/floor.py ast|visit|libcst LISTFILE

A file that does not parse counts as read; the tools measured against this report it too.
Every floor tunes the collector exactly as `toolwire check` and `toolwire migrate` do
(`engine.batch_gc`, copied here so that the floor does not import toolwire), so a ratio
measures the work, not the GC settings.
"""

from __future__ import annotations

import gc
import sys
import warnings


def batch_gc() -> None:
    """The same settings as `toolwire.lint.engine.batch_gc`."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def main() -> int:
    kind, listing = sys.argv[1], sys.argv[2]
    with open(listing, encoding="utf-8") as handle:
        paths = [line for line in handle.read().splitlines() if line]
    warnings.simplefilter("ignore")
    if kind in ("ast", "visit"):
        import ast

        visitor = ast.NodeVisitor() if kind == "visit" else None
        batch_gc()
        for path in paths:
            with open(path, "rb") as source:
                data = source.read()
            try:
                tree = ast.parse(data, filename=path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            if visitor is not None:
                visitor.visit(tree)  # generic_visit: every node, nothing done
    else:
        import libcst

        batch_gc()  # migrate_paths tunes the collector as check does
        for path in paths:
            with open(path, "rb") as source:
                data = source.read()
            try:
                libcst.parse_module(data).code  # noqa: B018 - the codegen is the point
            except (libcst.ParserSyntaxError, RecursionError, MemoryError):
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
