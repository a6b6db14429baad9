"""A tool-result sink receives something other than `<result>.content`."""

from __future__ import annotations

from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    CallExpr,
    DictExpr,
    Expression,
    GeneratorExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    RefExpr,
    SetExpr,
    StrExpr,
    TupleExpr,
)
from mypy.types import Type

from toolwire.lint.mypy._types import is_exactly
from toolwire.lint.mypy.api import Call, Rules

CODE = "TW301"


def register(plugin: Rules) -> None:
    wrappers: set[str] = set()

    def is_wrapper(callee: Expression) -> bool:
        if not isinstance(callee, RefExpr) or not callee.fullname:
            return False
        if not wrappers:  # the definitions' names, once mypy has loaded them
            for name in plugin.index.wrappers:
                wrappers.add(name)
                wrappers.add(plugin.resolved(name) or name)
        return callee.fullname in wrappers

    def is_wire(call: Call, expr: Expression) -> bool:
        """Exactly a result's wire field, or a structure around it that computes nothing
        from it (the syntax layer's rule: rules/TW301.md)."""
        if isinstance(expr, MemberExpr) and expr.name in plugin.index.wire_fields:
            return is_exactly(plugin.type_of(call.api, expr.expr), plugin.results)
        parts: list[Expression] = []
        if isinstance(expr, DictExpr):
            parts = [p for k, v in expr.items for p in (k, v) if p is not None]
        elif isinstance(expr, ListExpr | TupleExpr | SetExpr):
            parts = list(expr.items)
        elif isinstance(expr, CallExpr) and is_wrapper(expr.callee):
            parts = list(expr.args)
        elif (
            isinstance(expr, CallExpr)
            and isinstance(expr.callee, MemberExpr)
            and expr.callee.name == "join"
            and isinstance(expr.callee.expr, StrExpr)
            and len(expr.args) == 1
        ):
            # `"\n".join(b.text for b in result.content)`: the blocks' wire texts, joined
            joined = expr.args[0]
            if isinstance(joined, ListComprehension):
                joined = joined.generator
            return isinstance(joined, GeneratorExpr) and is_wire(call, joined.left_expr)
        else:
            return False
        return all(is_wire(call, p) or not plugin.from_result(call, p) for p in parts)

    def check(call: Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        name = plugin.shown(typ)
        if plugin.holds_result(call, expr, typ):
            plugin.fail(
                call.api, CODE, "whole", expr, sink=sink, value=name, content="result.content"
            )
            return
        if plugin.from_artifacts(call, expr, typ):
            return  # TW302
        if kind in (ARG_STAR, ARG_STAR2) or isinstance(expr, NameExpr):
            return  # the syntax layer follows names; mypy's types say nothing about them
        if is_wire(call, expr):
            return
        if not plugin.from_result(call, expr):
            return  # a literal, or text made without a result: nothing of a result leaks
        value = f"a value computed from a {name}"
        plugin.fail(call.api, CODE, "other", expr, sink=sink, value=value)

    plugin.on_sink("wire", check)
