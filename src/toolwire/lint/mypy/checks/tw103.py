"""`ToolResult.error(...)` given artifacts."""

from __future__ import annotations

from mypy.nodes import ARG_STAR2, CallExpr

from toolwire.lint.mypy.api import Call, Rules

CODE = "TW103"


def register(plugin: Rules) -> None:
    def check(call: Call) -> None:
        node = call.context
        if not isinstance(node, CallExpr):
            return
        if len(node.args) > 1 or any(kind == ARG_STAR2 for kind in node.arg_kinds):
            plugin.fail(call.api, CODE, "artifacts", node)

    plugin.on_constructed_result(lambda fullname: plugin.on_method(f"{fullname}.error", check))
