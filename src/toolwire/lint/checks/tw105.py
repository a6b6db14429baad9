from __future__ import annotations

import ast

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message

_STRING_FORMS = frozenset({"__str__", "__format__", "__bytes__"})


class ResultSubclassOrStringForm(Check):
    code = "TW105"

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        for base in node.bases:
            if ctx.facts.is_constructed_class(ctx.qualify(base)):
                text = message(self.code, "subclass", name=node.name, result="ToolResult")
                self.report(ctx, node, text)

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr in _STRING_FORMS
                and ctx.facts.is_constructed_class(ctx.qualify(target.value))
            ):
                text = message(self.code, "string-form", name=target.attr, result="ToolResult")
                self.report(ctx, target, text)
