"""A result type with factories called directly."""

from __future__ import annotations

from toolwire.lint.mypy.api import Call, Rules

CODE = "TW102"


def register(plugin: Rules) -> None:
    def check(call: Call) -> None:
        plugin.fail(call.api, CODE, "direct", call.context)

    plugin.on_constructed_result(lambda fullname: plugin.on_function(fullname, check))
