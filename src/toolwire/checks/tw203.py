from __future__ import annotations

import ast

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, holder, holds_result

_ADVICE = "serialise result.to_flowdrop() for the wire or result.audit_record() for the audit log"


class ResultSerialised(Check):
    code = "TW203"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        short = ctx.facts.model.serialisers.get(ctx.qualify(node.func) or "")
        if short is not None and node.args and holds_result(ctx, node.args[0]):
            self.report(ctx, node, f"{short}() of {holder(ctx, node.args[0])}: {_ADVICE}")

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        attributes = ctx.facts.model.serialiser_attributes
        if node.attr in attributes and ctx.labels(node.value) & L.RESULT:
            self.report(ctx, node, f".{node.attr} of {holder(ctx, node.value)}: {_ADVICE}")
