from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check, holder, holds_result
from toolwire.lint.messages import message


class ResultSerialised(Check):
    code = "TW203"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in ctx.facts.index.serialiser_methods
            and ctx.labels(func.value) & L.RESULT
            and not _spread(ctx, node)
        ):
            # The syntax layer does not know which result type: no type's `safe-strings`
            # lists `model_dump` yet (layer limit in docs/model.md).
            shown = holder(ctx, func.value)
            self.report(ctx, node, message(self.code, "call", call=f".{func.attr}", value=shown))
            return
        short = ctx.facts.index.serialisers.get(ctx.qualify(func) or "")
        if short is not None and node.args:
            leaked = _serialised(ctx, node.args[0])
            if leaked is not None:
                self.report(ctx, node, message(self.code, "call", call=short, value=leaked))

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        attributes = ctx.facts.index.serialiser_attributes
        if node.attr not in attributes:
            return
        shown = _serialised(ctx, node.value, whole=False)
        if shown is not None:
            text = message(self.code, "attribute", attribute=f".{node.attr}", value=shown)
            self.report(ctx, node, text)


def _serialised(ctx: Context, value: ast.expr, whole: bool = True) -> str | None:
    """What a serialiser of `value` leaks, for the message: a result (`whole`: or a
    container of them), or an instance of a class whose fields hold one; None: nothing."""
    labels = ctx.labels(value)
    if labels & L.RESULT or (whole and holds_result(ctx, value)):
        return holder(ctx, value)
    held = ctx.facts.holding_class(labels)
    if held is None:
        return None
    return f"a {held.name}, which holds a {ctx.facts.result_name(L.NOTHING)}"


def _spread(ctx: Context, node: ast.Call) -> bool:
    """`Chunk(**message.model_dump())`: the fields copied into another object (its own
    run-only fields stay run-only there), not a serialisation. Asked only of a finding."""
    return any(
        isinstance(k, ast.keyword) and k.arg is None and k.value is node
        for k in ast.walk(ctx.scope.node)
    )
