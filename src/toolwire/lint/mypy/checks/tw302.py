"""An artifact, or a value computed from one, reaches a wire or egress sink."""

from __future__ import annotations

from mypy.nodes import ArgKind, Expression
from mypy.types import Type

from toolwire.lint.mypy.api import Call, Rules

CODE = "TW302"


def register(plugin: Rules) -> None:
    def check(call: Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        if plugin.holds_result(call, expr, typ):
            return  # TW301 / TW201
        if plugin.from_artifacts(call, expr, typ):
            plugin.fail(call.api, CODE, "sink", expr, sink=sink, value="an artifact")

    plugin.on_sink("wire", check)
    plugin.on_sink("egress", check)
