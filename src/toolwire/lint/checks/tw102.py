from __future__ import annotations

import ast

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class DirectConstruction(Check):
    code = "TW102"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.facts.is_constructed_class(ctx.qualify(node.func)):
            self.report(ctx, node, message(self.code, "direct", result="ToolResult"))
