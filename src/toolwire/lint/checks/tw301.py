from __future__ import annotations

import ast
from collections.abc import Iterator

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import call_sink_payloads, message_sink_payloads
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


def wire_payloads(node: ast.Call | ast.Dict, ctx: Context) -> Iterator[tuple[str, ast.expr]]:
    if isinstance(node, ast.Call):
        yield from call_sink_payloads(node, ctx, ctx.facts.wire_sinks)
    else:
        yield from message_sink_payloads(node, ctx)


def wire_return(ctx: Context, node: ast.Return) -> str | None:
    """The call (`after_tool_call`) that sends what the function being interpreted returns
    as the tool's answer (the model's `wire-returns`), or None."""
    scope = ctx.scope.node
    if node.value is None or not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    return ctx.facts.handed_return(scope, "wire-returns")


class WirePayloadNotContent(Check):
    """The whole result, or a string made from one, at a wire sink. Artifacts are TW302."""

    code = "TW301"

    def visit_Call(self, node: ast.Call | ast.Dict, ctx: Context) -> None:
        for sink, payload in wire_payloads(node, ctx):
            self._judge(ctx, sink, payload)

    visit_Dict = visit_Call

    def visit_Return(self, node: ast.Return, ctx: Context) -> None:
        """A CrewAI after-tool-call hook's return replaces what the model reads."""
        sink = wire_return(ctx, node)
        if sink is not None and node.value is not None:
            self._judge(ctx, sink, node.value, fix=False)

    def _judge(self, ctx: Context, sink: str, payload: ast.expr, fix: bool = True) -> None:
        labels = ctx.labels(payload)
        if labels & L.ARTIFACT:
            return
        shown = ctx.describe(payload)
        name = ctx.facts.result_name(labels)
        if labels & ~ctx.facts.result_bits == L.RESULT:
            value, content = f"{name} {shown}", f"{shown}.content"
            text = message(self.code, "whole", sink=sink, value=value, content=content)
            self.report(ctx, payload, text, fix="wire-content" if fix else None)
            return
        if labels & L.RESULT:
            value = f"{shown}, which may be a {name}"
        elif L.holds_result(labels):
            value = f"{shown}, which holds {name}s"
        elif labels & L.DERIVED:
            value = f"{shown}, a value computed from a {name}"
        else:
            return
        key = "whole" if L.holds_result(labels) else "other"
        text = message(self.code, key, sink=sink, value=value, content=".content")
        self.report(ctx, payload, text)
