from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import call_sink_payloads
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ArtifactInResumableState(Check):
    code = "TW401"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        for sink, payload in call_sink_payloads(node, ctx, ctx.facts.state_sinks):
            labels = ctx.labels(payload)
            if labels & (L.ARTIFACT | L.WHOLE):
                what = "artifacts" if labels & L.ARTIFACT else "ToolResults and their artifacts"
                shown = ctx.describe(payload)
                text = message(self.code, "sink", sink=sink, value=shown, what=what)
                self.report(ctx, payload, text)
