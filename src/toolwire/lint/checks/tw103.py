from __future__ import annotations

import ast

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ErrorWithArtifacts(Check):
    code = "TW103"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "error"):
            return
        if not ctx.facts.is_constructed_class(ctx.qualify(func.value)):
            return
        extra = len(node.args) > 1 or any(isinstance(a, ast.Starred) for a in node.args)
        if extra or node.keywords:
            self.report(ctx, node, message(self.code, "artifacts", result="ToolResult"))
