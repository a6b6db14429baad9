from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check

_PLAIN = (ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict, ast.Set)


class ToolReturnsNonResult(Check):
    code = "TW104"

    def visit_Return(self, node: ast.Return, ctx: Context) -> None:
        scope = ctx.scope
        function = scope.node
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or scope.cls is None:
            return
        if function.name not in ctx.facts.tool_methods:
            return
        if not ctx.facts.returns(function) & L.RESULT:
            return
        value = node.value
        plain = value is None or isinstance(value, _PLAIN) or _is_percent_format(value)
        if plain:
            shown = "nothing" if value is None else ctx.describe(value)
            self.report(
                ctx,
                value or node,
                f"tool method {function.name}() returns {shown}, not a ToolResult: "
                "wrap it in ToolResult.text() or ToolResult.error()",
            )


def _is_percent_format(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    )
