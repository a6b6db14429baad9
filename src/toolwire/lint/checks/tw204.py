from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check, holder, holds_result, stringifies_result
from toolwire.lint.messages import message


class ResultPrintedOrLogged(Check):
    code = "TW204"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        kind = _kind(node, ctx)
        if kind is None:
            return
        # a printer writes `str()` of each argument; a logger's format may say `%r`
        judge = stringifies_result if kind == "print" else holds_result
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            value = argument.value if isinstance(argument, ast.Starred) else argument
            if judge(ctx, value):
                shown = holder(ctx, value)
                self.report(ctx, node, message(self.code, "call", call=kind, value=shown))
                return


def _kind(node: ast.Call, ctx: Context) -> str | None:
    func = node.func
    index = ctx.facts.index
    shown = index.printers.get(ctx.qualify(func) or "")
    if shown is not None:
        return shown
    if (
        isinstance(func, ast.Attribute)
        and func.attr in index.log_methods
        and ctx.labels(func.value) & L.LOGGER
    ):
        return f"logger.{func.attr}"
    return None
