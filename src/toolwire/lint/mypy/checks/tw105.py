"""A subclass of a final result type."""

from __future__ import annotations

from mypy.plugin import ClassDefContext

from toolwire.lint.mypy.api import Rules

CODE = "TW105"


def register(plugin: Rules) -> None:
    def check(ctx: ClassDefContext) -> None:
        info = ctx.cls.info
        constructed = {n for n in plugin.results if plugin.types[n].factories}
        if any(base.type.fullname in constructed for base in info.bases):
            plugin.fail(ctx.api, CODE, "subclass", ctx.cls, name=info.name)

    plugin.on_class(check, result_subclasses_only=True)
