from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check


class ToolCalledOutsideSeam(Check):
    code = "TW303"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        seam = ctx.facts.config.seam
        func = node.func
        if not seam or ctx.facts.module is None or not isinstance(func, ast.Attribute):
            return
        if func.attr not in ctx.facts.tool_methods or not ctx.labels(func.value) & L.TOOL:
            return
        scope = ctx.scope
        if scope.qualname == seam or scope.qualname.startswith(seam + "."):
            return
        if isinstance(func.value, ast.Name) and func.value.id == "self" and scope.cls is not None:
            return  # a tool delegating to its own tool method
        self.report(
            ctx,
            node,
            f"tool method {func.attr}() called outside the seam {seam}: its result skips bounding",
        )
