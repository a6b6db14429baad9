"""A whole result serialised (`json.dumps(r)`, `r.model_dump_json()`), or its `__dict__` read."""

from __future__ import annotations

from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface
from mypy.types import Instance, Type, get_proper_type

from toolwire.lint.mypy._types import holds, is_exactly
from toolwire.lint.mypy.api import Call, CallCheck, Rules

CODE = "TW203"


def register(plugin: Rules) -> None:
    for name, shown in plugin.index.serialisers.items():
        plugin.on_function(name, _check(plugin, shown))
    for attribute in plugin.index.serialiser_attributes:

        def exposed(
            api: CheckerPluginInterface, context: Context, typ: Type | None, attr: str = attribute
        ) -> None:
            if holds(typ, plugin.results):
                value = shown_value(plugin, typ)
                plugin.fail(api, CODE, "attribute", context, attribute=f".{attr}", value=value)

        plugin.on_attribute(f"builtins.object.{attribute}", exposed)
    for method in plugin.index.serialiser_methods:

        def dumped(
            api: CheckerPluginInterface, context: Context, typ: Type | None, name: str = method
        ) -> None:
            # a dump holds every field: unsafe unless the type's safe-strings say `model_dump`
            if holds(typ, plugin.unsafe("model_dump")):
                value = shown_value(plugin, typ)
                plugin.fail(api, CODE, "call", context, call=f".{name}", value=value)

        plugin.on_string_method(method, dumped)


def _check(plugin: Rules, shown: str) -> CallCheck:
    def check(call: Call) -> None:
        for expr, typ, _ in call.actuals([0]):
            if plugin.holds_result(call, expr, typ):
                value = shown_value(plugin, typ)
                plugin.fail(call.api, CODE, "call", call.context, call=shown, value=value)
                return

    return check


def shown_value(plugin: Rules, typ: Type | None) -> str:
    """`a ToolResult` for a result; for a value that holds one (a dataclass with a result
    field, a list of them), its own type and what it holds."""
    name = plugin.shown(typ)
    if is_exactly(typ, plugin.results):
        return f"a {name}"
    return f"a {_type_name(typ)}, which holds a {name}"


def _type_name(typ: Type | None) -> str:
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        return proper.type.name
    return str(proper)
