from __future__ import annotations

import ast

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check, is_empty_collection, result_mapping_fields
from toolwire.lint.messages import message


class EmptyArtifactsKey(Check):
    code = "TW404"

    def visit_Dict(self, node: ast.Dict | ast.Call, ctx: Context) -> None:
        fields = result_mapping_fields(node)
        if (
            fields is not None
            and "artifacts" in fields
            and is_empty_collection(fields["artifacts"])
        ):
            self.report(ctx, fields["artifacts"], message(self.code, "empty"))

    visit_Call = visit_Dict
