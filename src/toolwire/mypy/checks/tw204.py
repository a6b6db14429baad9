"""A result printed or logged (lazy stringification)."""

from __future__ import annotations

from toolwire.mypy._plugin import Call, CallCheck, ToolwirePlugin

CODE = "TW204"


def register(plugin: ToolwirePlugin) -> None:
    for name, shown in plugin.model.printers.items():
        plugin.on_function(name, _check(plugin, shown))
    for name in plugin.config.model.logger_methods:
        plugin.on_method(name, _check(plugin, f"logger.{name.rpartition('.')[2]}"))


def _check(plugin: ToolwirePlugin, shown: str) -> CallCheck:
    def check(call: Call) -> None:
        for expr, typ, _ in call.actuals():
            if plugin.holds_result(call, expr, typ, form="str"):
                plugin.fail(
                    call.api, CODE, "call", expr, call=shown, value=f"a {plugin.shown(typ)}"
                )
                return

    return check
