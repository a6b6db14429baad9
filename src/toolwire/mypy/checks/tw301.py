"""A tool-result sink receives something other than `<result>.content`."""

from __future__ import annotations

from mypy.nodes import ARG_STAR, ARG_STAR2, ArgKind, Expression, MemberExpr, NameExpr
from mypy.types import Type

from toolwire.mypy._plugin import Call, ToolwirePlugin
from toolwire.mypy._types import is_exactly

CODE = "TW301"


def register(plugin: ToolwirePlugin) -> None:
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
        if isinstance(expr, MemberExpr) and expr.name in plugin.model.wire_fields:
            if is_exactly(plugin.type_of(call.api, expr.expr), plugin.results):
                return
        if not plugin.from_result(call, expr):
            return  # a literal, or text made without a result: nothing of a result leaks
        value = f"a value computed from a {name}"
        plugin.fail(call.api, CODE, "other", expr, sink=sink, value=value)

    plugin.on_sink("wire", check)
