"""A result made text: a stringifier, a string method, or an egress sink."""

from __future__ import annotations

from mypy.nodes import ArgKind, Context, Expression
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type

from toolwire.lint.mypy._types import holds
from toolwire.lint.mypy.api import Call, CallCheck, Rules, ValueCheck

CODE = "TW201"


def register(plugin: Rules) -> None:
    for name, shown in plugin.index.stringifiers.items():
        plugin.on_function(name, _stringifier(plugin, shown))
    for method in plugin.index.string_methods:
        plugin.on_string_method(method, _string_method(plugin, method))

    def egress(call: Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        if plugin.holds_result(call, expr, typ, form="str"):
            plugin.fail(call.api, CODE, "egress", expr, sink=sink, value=f"a {plugin.shown(typ)}")

    plugin.on_sink("egress", egress)


def _form(shown: str) -> str:
    return "repr" if shown in ("repr", "ascii") else shown


def _stringifier(plugin: Rules, shown: str) -> CallCheck:
    form = _form(shown)

    def check(call: Call) -> None:
        for expr, typ, _ in call.actuals([0]):
            if plugin.holds_result(call, expr, typ, form=form):
                plugin.fail(
                    call.api,
                    CODE,
                    "call",
                    call.context,
                    call=shown,
                    value=f"a {plugin.shown(typ)}",
                )
                return

    return check


def _string_method(plugin: Rules, method: str) -> ValueCheck:
    form = _form(method.strip("_"))

    def check(api: CheckerPluginInterface, context: Context, typ: Type | None) -> None:
        if holds(typ, plugin.unsafe(form), string_forms=True):
            plugin.fail(
                api, CODE, "call", context, call=f".{method}", value=f"a {plugin.shown(typ)}"
            )

    return check
