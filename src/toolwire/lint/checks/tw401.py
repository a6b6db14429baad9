from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import call_sink_payloads, item_sink_payloads
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ArtifactInResumableState(Check):
    code = "TW401"

    def visit_Call(self, node: ast.Call | ast.Assign, ctx: Context) -> None:
        table = ctx.facts.state_sinks
        if isinstance(node, ast.Assign):  # `state["k"] = v`: a `__setitem__` sink
            payloads = item_sink_payloads(node, ctx, table)
        else:
            payloads = call_sink_payloads(node, ctx, table)
        for sink, payload in payloads:
            labels = ctx.labels(payload)
            if labels & (L.ARTIFACT | L.WHOLE):
                what = "artifacts" if labels & L.ARTIFACT else "ToolResults and their artifacts"
                shown = ctx.describe(payload)
                text = message(self.code, "sink", sink=sink, value=shown, what=what)
                self.report(ctx, payload, text)

    visit_Assign = visit_Call

    def visit_Return(self, node: ast.Return, ctx: Context) -> None:
        """A LangGraph node's returned dict is merged into checkpointed graph state."""
        value = node.value
        if value is None or not isinstance(ctx.scope.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return
        self._returned(ctx.scope.node, value, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        """`add_node("n", lambda state: {...})`: the lambda's value is the node's return."""
        self._returned(node, node.body, ctx)

    def _returned(self, function: ast.AST, value: ast.expr, ctx: Context) -> None:
        labels = ctx.labels(value)
        if not labels & (L.ARTIFACT | L.WHOLE):
            return
        sink = ctx.facts.handed_return(function, "state-returns")
        if sink is not None:
            what = "artifacts" if labels & L.ARTIFACT else "ToolResults and their artifacts"
            shown = ctx.describe(value)
            self.report(
                ctx, value, message(self.code, "returns", sink=sink, value=shown, what=what)
            )
