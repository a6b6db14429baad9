from __future__ import annotations

import ast

from toolwire.analysis.flow import Context
from toolwire.checks.base import Check

_STRING_FORMS = frozenset({"__str__", "__format__", "__bytes__"})


class ResultSubclassOrStringForm(Check):
    code = "TW105"

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        for base in node.bases:
            if ctx.facts.is_constructed_class(ctx.qualify(base)):
                self.report(ctx, node, f"class {node.name} subclasses ToolResult, which is final")

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr in _STRING_FORMS
                and ctx.facts.is_constructed_class(ctx.qualify(target.value))
            ):
                self.report(
                    ctx,
                    target,
                    f"{target.attr} assigned onto ToolResult: it has no string form by design",
                )
