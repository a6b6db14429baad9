from __future__ import annotations

import ast

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, holder, holds_result

_CONVERSIONS = {f"builtins.{n}": n for n in ("str", "repr", "ascii", "format")}
_DUNDERS = frozenset({"__str__", "__repr__", "__format__"})


class ResultStringified(Check):
    code = "TW201"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        conversion = _CONVERSIONS.get(ctx.qualify(func) or "")
        if conversion and node.args and holds_result(ctx, node.args[0]):
            value = node.args[0]
            fix = None
            if conversion == "str" and len(node.args) == 1 and ctx.labels(value) == L.RESULT:
                fix = "wire-content"
            self.report(
                ctx,
                node,
                f"{conversion}() of {holder(ctx, value)}: use .content for the wire string",
                fix,
            )
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in _DUNDERS
            and holds_result(ctx, func.value)
        ):
            self.report(
                ctx,
                node,
                f".{func.attr}() of {holder(ctx, func.value)}: use .content for the wire string",
            )
