from __future__ import annotations

import ast

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, holder, holds_result

SERIALISERS = frozenset(
    {
        "json.dumps",
        "json.dump",
        "pickle.dumps",
        "pickle.dump",
        "marshal.dumps",
        "dataclasses.asdict",
        "dataclasses.astuple",
        "builtins.vars",
    }
)
_ADVICE = "serialise result.to_flowdrop() for the wire or result.audit_record() for the audit log"


class ResultSerialised(Check):
    code = "TW203"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        name = ctx.qualify(node.func)
        if name in SERIALISERS and node.args and holds_result(ctx, node.args[0]):
            short = name.removeprefix("builtins.")
            self.report(ctx, node, f"{short}() of {holder(ctx, node.args[0])}: {_ADVICE}")

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if node.attr == "__dict__" and ctx.labels(node.value) & L.RESULT:
            self.report(ctx, node, f".__dict__ of {holder(ctx, node.value)}: {_ADVICE}")
