from __future__ import annotations

import ast

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, call_sink_payloads


class ArtifactAsRawHtml(Check):
    code = "TW402"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        for sink, payload in call_sink_payloads(node, ctx, ctx.facts.html_sinks):
            if ctx.labels(payload) & L.ARTIFACT:
                self.report(
                    ctx,
                    payload,
                    f"{sink}() marks {ctx.describe(payload)}, computed from artifacts, as safe "
                    "HTML: artifact payloads are untrusted, escape them",
                )
