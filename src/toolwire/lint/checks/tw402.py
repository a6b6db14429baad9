from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import call_sink_payloads
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ArtifactAsRawHtml(Check):
    code = "TW402"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        for sink, payload in call_sink_payloads(node, ctx, ctx.facts.html_sinks):
            if ctx.labels(payload) & L.ARTIFACT:
                shown = ctx.describe(payload)
                self.report(ctx, payload, message(self.code, "sink", sink=sink, value=shown))
