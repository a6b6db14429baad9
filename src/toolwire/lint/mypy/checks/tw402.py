"""An artifact payload marked as safe HTML."""

from __future__ import annotations

from mypy.nodes import ArgKind, Expression
from mypy.types import Type

from toolwire.lint.mypy.api import Call, Rules

CODE = "TW402"


def register(plugin: Rules) -> None:
    def check(call: Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        if plugin.from_artifacts(call, expr, typ):
            plugin.fail(call.api, CODE, "sink", expr, sink=sink, value="an artifact")

    plugin.on_sink("html", check)
