from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import egress_payloads
from toolwire.lint.checks.base import (
    Check,
    holder,
    holds_result,
    returns_to_wire,
    stringifies_result,
)
from toolwire.lint.messages import message

# The string forms a result type's `safe-strings` may make safe (labels.SAFE_STR).
_SAFE_FORMS = frozenset({"str", "format"})
_SAFE_METHODS = frozenset({"__str__", "__format__"})


class ResultStringified(Check):
    code = "TW201"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        self._egress(node, ctx)
        func = node.func
        index = ctx.facts.index
        conversion = index.stringifiers.get(ctx.qualify(func) or "")
        safe = conversion in _SAFE_FORMS
        if (
            conversion
            and node.args
            and (stringifies_result if safe else holds_result)(ctx, node.args[0])
        ):
            value = node.args[0]
            fix = None
            if (
                conversion == "str"
                and len(node.args) == 1
                and ctx.labels(value) & ~ctx.facts.result_bits == L.RESULT
            ):
                fix = "wire-content"
            self.report(
                ctx,
                node,
                message(self.code, "call", call=conversion, value=holder(ctx, value)),
                fix,
            )
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in index.string_methods
            and (stringifies_result if func.attr in _SAFE_METHODS else holds_result)(
                ctx, func.value
            )
        ):
            shown = holder(ctx, func.value)
            self.report(ctx, node, message(self.code, "call", call=f".{func.attr}", value=shown))

    def visit_Dict(self, node: ast.Dict, ctx: Context) -> None:
        self._egress(node, ctx)

    def _egress(self, node: ast.Call | ast.Dict, ctx: Context) -> None:
        for sink, payload in egress_payloads(node, ctx):
            if holds_result(ctx, payload):
                shown = holder(ctx, payload)
                self.report(ctx, payload, message(self.code, "egress", sink=sink, value=shown))

    def visit_Return(self, node: ast.Return, ctx: Context) -> None:
        value = node.value
        if value is None or not holds_result(ctx, value):
            return
        sent = returns_to_wire(ctx, value)
        if sent is not None and holds_result(ctx, sent):
            self.report(ctx, sent, message(self.code, "returns", value=holder(ctx, sent)))
