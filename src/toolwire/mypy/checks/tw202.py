"""A result put into a string by a str method or operator (f-strings are str.format)."""

from __future__ import annotations

from toolwire.mypy._plugin import Call, CallCheck, ToolwirePlugin

CODE = "TW202"
_FORMS = {
    "format": "f-string or str.format()",
    "__mod__": "%-format",
    "__add__": "str +",
}


def register(plugin: ToolwirePlugin) -> None:
    for name in plugin.config.model.formatters:
        method = name.rpartition(".")[2]
        plugin.on_method(name, _check(plugin, _FORMS.get(method, f"str.{method}()")))


def _check(plugin: ToolwirePlugin, form: str) -> CallCheck:
    def check(call: Call) -> None:
        for expr, typ, _ in call.actuals():
            if plugin.holds_result(call, expr, typ, form="str"):
                plugin.fail(
                    call.api, CODE, "format", expr, form=form, value=f"a {plugin.result_name}"
                )
                return

    return check
