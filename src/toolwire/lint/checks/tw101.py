from __future__ import annotations

import ast

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ToolReturnsStr(Check):
    code = "TW101"

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: Context) -> None:
        scope = ctx.scope
        if not isinstance(scope.node, ast.ClassDef) or scope.cls is None:
            return
        if node.name not in ctx.facts.tool_methods or not scope.cls.is_tool:
            return
        if _is_exactly_str(node.returns, ctx):
            name = f"{scope.cls.name}.{node.name}"
            text = message(self.code, "returns-str", name=name, result="ToolResult")
            self.report(ctx, node, text, fix="tool-returns")

    visit_AsyncFunctionDef = visit_FunctionDef


def _is_exactly_str(annotation: ast.expr | None, ctx: Context) -> bool:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.strip() in ("str", "builtins.str")
    return annotation is not None and ctx.facts.names.qualify(annotation) == "builtins.str"
