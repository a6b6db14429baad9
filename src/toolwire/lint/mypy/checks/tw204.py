"""A result printed or logged (lazy stringification)."""

from __future__ import annotations

from toolwire.lint.mypy.api import Call, CallCheck, Rules

CODE = "TW204"


def register(plugin: Rules) -> None:
    for name, shown in plugin.index.printers.items():
        plugin.on_function(name, _check(plugin, shown))
    for name in plugin.config.model.logger_methods:
        plugin.on_method(name, _check(plugin, f"logger.{name.rpartition('.')[2]}"))


def _check(plugin: Rules, shown: str) -> CallCheck:
    def check(call: Call) -> None:
        for expr, typ, _ in call.actuals():
            if plugin.holds_result(call, expr, typ, form="str"):
                plugin.fail(
                    call.api, CODE, "call", call.context, call=shown, value=f"a {plugin.shown(typ)}"
                )
                return

    return check
