"""The floors: read each listed file and parse it (`ast`), or parse and regenerate it (LibCST).

    python bench/floor.py ast|libcst LISTFILE

A file that does not parse counts as read; the tools measured against this report it too.
"""

from __future__ import annotations

import sys
import warnings


def main() -> int:
    kind, listing = sys.argv[1], sys.argv[2]
    with open(listing, encoding="utf-8") as handle:
        paths = [line for line in handle.read().splitlines() if line]
    warnings.simplefilter("ignore")
    if kind == "ast":
        import ast

        for path in paths:
            with open(path, "rb") as source:
                data = source.read()
            try:
                ast.parse(data, filename=path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                pass
    else:
        import libcst

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
