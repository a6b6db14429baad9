"""Call sites that reach a tool through a dict of tools: left for a person, and said so.

`self.tools[name].execute(args)` (or `self.tools.get(name).execute(args)`) may reach a
tool the run migrated (it now returns a `ToolResult`) or one it did not; nothing in the
code says which. So such a call is never rewritten, and every one of them whose method
name the run migrated somewhere is listed with its place. Cheap: a regex decides whether
a file is worth an `ast` parse.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache

from toolwire.lint.codemods.reports import MethodEvent

__all__ = ["dict_tool_calls"]


@cache
def _patterns(methods: frozenset[str]) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    names = "|".join(re.escape(m) for m in sorted(methods)).encode()
    call = rb"\.\s*(?:" + names + rb")\s*\("
    # the call alone first: its literal `.` lets `re` skip ahead, which `[\])]` does not
    return re.compile(call), re.compile(rb"[\])]\s*" + call)


def dict_tool_calls(data: bytes, path: str, methods: Iterable[str]) -> list[MethodEvent]:
    """`X[...].m(...)` and `X.get(...).m(...)` calls in a module, for each tool method
    name `m` migrated in the run."""
    wanted = frozenset(methods)
    if not wanted:
        return []
    call, subscripted = _patterns(wanted)
    if not call.search(data) or not subscripted.search(data):
        return []
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []  # the run reports an unparsable file on its own
    found: list[MethodEvent] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in wanted
        ):
            continue
        method, picked = node.func.attr, node.func.value
        if isinstance(picked, ast.Subscript):
            via = f"{ast.unparse(picked.value)}[...]"
        elif (
            isinstance(picked, ast.Call)
            and isinstance(picked.func, ast.Attribute)
            and picked.func.attr == "get"
        ):
            via = f"{ast.unparse(picked.func.value)}.get(...)"
        else:
            continue
        reason = (
            f"`{via}.{method}(...)` reaches a tool through a dict of tools, and "
            f"`{method}` returns a ToolResult in the tools this run migrated: check what "
            "this call does with the result (`.content` is the text)"
        )
        found.append(MethodEvent(path, node.lineno, "", method, reason))
    return sorted(found, key=lambda e: e.line)
