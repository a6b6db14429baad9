from __future__ import annotations

import ast
from collections.abc import Iterator

from toolwire.analysis import labels as L
from toolwire.analysis.flow import Context
from toolwire.checks.base import Check, call_sink_payloads, message_sink_payloads


def wire_payloads(node: ast.Call | ast.Dict, ctx: Context) -> Iterator[tuple[str, ast.expr]]:
    if isinstance(node, ast.Call):
        yield from call_sink_payloads(node, ctx, ctx.facts.wire_sinks)
    else:
        yield from message_sink_payloads(node, ctx)


class WirePayloadNotContent(Check):
    """The whole result, or a string made from one, at a wire sink. Artifacts are TW302."""

    code = "TW301"

    def visit_Call(self, node: ast.Call | ast.Dict, ctx: Context) -> None:
        for sink, payload in wire_payloads(node, ctx):
            labels = ctx.labels(payload)
            if labels & L.ARTIFACT:
                continue
            shown = ctx.describe(payload)
            if labels == L.RESULT:
                self.report(
                    ctx,
                    payload,
                    f"{sink} receives the whole ToolResult {shown}: pass {shown}.content",
                    fix="wire-content",
                )
            elif labels & L.RESULT:
                self.report(
                    ctx,
                    payload,
                    f"{sink} receives {shown}, which may be a whole ToolResult: pass .content",
                )
            elif L.holds_result(labels):
                self.report(
                    ctx, payload, f"{sink} receives {shown}, which holds ToolResults: pass .content"
                )
            elif labels & L.DERIVED:
                self.report(
                    ctx,
                    payload,
                    f"{sink} receives {shown}, a value computed from a ToolResult: "
                    "pass result.content itself",
                )

    visit_Dict = visit_Call
