from __future__ import annotations

import ast

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, holder
from toolwire.messages import message


class ResultUsedAsStr(Check):
    code = "TW106"

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        # A method read, not called (`handler = text.strip`); a called one is the Call's.
        if node.attr in ctx.facts.model.str_methods and _whole(ctx, node.value):
            self._report(ctx, node, f".{node.attr}", node.value)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in ctx.facts.model.str_methods
            and _whole(ctx, func.value)
        ):
            self._report(ctx, node, f".{func.attr}()", func.value)
        elif (
            len(node.args) == 1
            and not node.keywords
            and _whole(ctx, node.args[0])
            and ctx.qualify(node.func) == "builtins.len"
        ):
            self._report(ctx, node, "len()", node.args[0])

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if _whole(ctx, node.value):
            form = "a slice" if isinstance(node.slice, ast.Slice) else "an index"
            self._report(ctx, node, form, node.value)

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.In | ast.NotIn) and _whole(ctx, right):
                self._report(ctx, node, "`in`", right)
                return

    def _report(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        self.report(ctx, node, message(self.code, "call", call=form, value=holder(ctx, value)))


def _whole(ctx: Context, node: ast.expr) -> bool:
    return bool(ctx.labels(node) & L.RESULT)
