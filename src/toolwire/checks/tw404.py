from __future__ import annotations

import ast

from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, is_empty_collection, result_mapping_fields


class EmptyArtifactsKey(Check):
    code = "TW404"

    def visit_Dict(self, node: ast.Dict | ast.Call, ctx: Context) -> None:
        fields = result_mapping_fields(node)
        if (
            fields is not None
            and "artifacts" in fields
            and is_empty_collection(fields["artifacts"])
        ):
            self.report(
                ctx,
                fields["artifacts"],
                "empty artifacts in a result mapping: leave the key out when there are none "
                "(RT-TOOL-1.2)",
            )

    visit_Call = visit_Dict
