"""A result or its artifacts reach resumable state."""

from __future__ import annotations

from mypy.nodes import ArgKind, Expression
from mypy.types import Type

from toolwire.lint.mypy.api import Call, Rules

CODE = "TW401"


def register(plugin: Rules) -> None:
    def check(call: Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        if plugin.holds_result(call, expr, typ):
            what = "ToolResults and their artifacts"
        elif plugin.from_artifacts(call, expr, typ):
            what = "artifacts"
        else:
            return
        value = "this value"
        plugin.fail(call.api, CODE, "sink", expr, sink=sink, value=value, what=what)

    plugin.on_sink("state", check)
