"""A tool method that returns str where the method it overrides returns a result."""

from __future__ import annotations

from mypy.nodes import Decorator, FuncDef, TypeAlias, TypeInfo
from mypy.plugin import ClassDefContext
from mypy.types import CallableType, Instance, Type, UnboundType, get_proper_type

from toolwire.lint.mypy._types import is_class, unwrap_coroutine
from toolwire.lint.mypy.api import Rules

CODE = "TW101"


def register(plugin: Rules) -> None:
    config = plugin.config
    if not config.tool_methods:
        return

    def check(ctx: ClassDefContext) -> None:
        info = ctx.cls.info
        for method in config.tool_methods:
            symbol = info.names.get(method)
            if symbol is None:
                continue
            if config.tool_bases:
                bases = {plugin.resolved(n) or n for n in config.tool_bases}
                if not is_class(info, bases | set(config.tool_bases)):
                    return
            func = _func(symbol.node)
            if func is None:
                continue
            # Signatures in the module being analysed are not analysed yet when class
            # hooks run: resolve the annotation's name the way mypy will.
            returned = _class_named(ctx, _ret(func))
            if returned is None or returned.fullname != "builtins.str":
                continue
            base = _overridden(info, method)
            if base is None:
                continue
            promised = _class_named(ctx, _ret(base[1]))
            if promised is not None and is_class(promised, plugin.results):
                plugin.fail(ctx.api, CODE, "returns-str", func, name=f"{info.name}.{method}")

    plugin.on_class(check)


def _class_named(ctx: ClassDefContext, typ: Type | None) -> TypeInfo | None:
    """The class a return annotation names, analysed or not; `async` unwrapped."""
    proper = unwrap_coroutine(typ)
    if isinstance(proper, Instance):
        return proper.type
    if isinstance(proper, UnboundType):
        symbol = ctx.api.lookup_qualified(proper.name, ctx.cls, suppress_errors=True)
        node = symbol.node if symbol is not None else None
        if isinstance(node, TypeAlias):
            target = get_proper_type(node.target)
            return target.type if isinstance(target, Instance) else None
        return node if isinstance(node, TypeInfo) else None
    return None


def _func(node: object) -> FuncDef | None:
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


def _ret(func: FuncDef) -> Type | None:
    return func.type.ret_type if isinstance(func.type, CallableType) else None


def _overridden(info: TypeInfo, method: str) -> tuple[TypeInfo, FuncDef] | None:
    for base in info.mro[1:]:
        symbol = base.names.get(method)
        if symbol is not None:
            func = _func(symbol.node)
            return (base, func) if func is not None else None
    return None
