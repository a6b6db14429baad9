from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import egress_payloads
from toolwire.lint.checks.base import Check, returns_to_wire
from toolwire.lint.checks.tw301 import wire_payloads, wire_return
from toolwire.lint.messages import message


class ArtifactOnWire(Check):
    code = "TW302"

    def visit_Call(self, node: ast.Call | ast.Dict, ctx: Context) -> None:
        for sink, payload in (*wire_payloads(node, ctx), *egress_payloads(node, ctx)):
            if ctx.labels(payload) & L.ARTIFACT:
                shown = ctx.describe(payload)
                self.report(ctx, payload, message(self.code, "sink", sink=sink, value=shown))

    visit_Dict = visit_Call

    def visit_Return(self, node: ast.Return, ctx: Context) -> None:
        value = node.value
        if value is None or not ctx.labels(value) & L.ARTIFACT:
            return
        hook = wire_return(ctx, node)
        if hook is not None:  # a CrewAI after-tool-call hook: its return is the answer
            shown = ctx.describe(value)
            self.report(ctx, value, message(self.code, "sink", sink=hook, value=shown))
            return
        sent = returns_to_wire(ctx, value)
        if sent is not None and ctx.labels(sent) & L.ARTIFACT:
            self.report(ctx, sent, message(self.code, "returns", value=ctx.describe(sent)))
