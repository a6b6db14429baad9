from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import constant_fields
from toolwire.lint.checks.base import Check, result_mapping_fields
from toolwire.lint.messages import message


class ArtifactsFoldedIntoData(Check):
    code = "TW403"

    def visit_Dict(self, node: ast.Dict | ast.Call, ctx: Context) -> None:
        fields = result_mapping_fields(node)
        if fields is None:
            return
        data = fields["data"]
        folded = isinstance(data, ast.Dict) and "artifacts" in constant_fields(data)
        if folded or ctx.labels(data) & L.ARTIFACT:
            self.report(ctx, data, message(self.code, "data"))

    visit_Call = visit_Dict

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and _is_key(target.slice, "artifacts")
                and isinstance(target.value, ast.Subscript)
                and _is_key(target.value.slice, "data")
            ):
                self.report(ctx, target, message(self.code, "assigned"))


def _is_key(node: ast.expr, key: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == key
