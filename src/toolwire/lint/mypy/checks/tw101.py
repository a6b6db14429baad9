"""A tool method that returns str where the method it overrides returns a result; a
function a framework's tool decorator makes a tool (`[[function-tools]]`) annotated `-> str`."""

from __future__ import annotations

from mypy.nodes import (
    FUNC_NO_INFO,
    CallExpr,
    Decorator,
    FuncDef,
    RefExpr,
    TempNode,
    TypeAlias,
    TypeInfo,
)
from mypy.plugin import ClassDefContext
from mypy.types import CallableType, Instance, Type, UnboundType, get_proper_type

from toolwire.lint.mypy._types import is_class, unwrap_coroutine
from toolwire.lint.mypy.api import Call, Rules

CODE = "TW101"


def register(plugin: Rules) -> None:
    _function_tools(plugin)
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


def _function_tools(plugin: Rules) -> None:
    """mypy type-checks a decorator's application as a call of the decorator with the
    function (`checker.visit_decorator`), named by the decorator's fullname (`@tool`) or,
    on an instance, its method's (`@agent.tool`): the presets' `[[function-tools]]`
    decorators, as the syntax layer reads them. A decorator returned by a call
    (`@mcp.tool()`) is applied unnamed: only the syntax layer sees it."""
    shapes = plugin.config.model.function_tools
    adapters = frozenset(shape.adapter for shape in shapes)

    def check(call: Call) -> None:
        decorator = call.context
        if not isinstance(decorator, Decorator):
            return  # a call of the decorator in code, not its application
        if not any(isinstance(expr, TempNode) for expr, _, _ in call.actuals()):
            return
        func = decorator.func
        returned = unwrap_coroutine(_ret(func))
        if not (isinstance(returned, Instance) and returned.type.fullname == "builtins.str"):
            return
        if any(_applied(d) in adapters for d in decorator.decorators):
            return  # under a toolwire adapter: it returns a ToolResult
        name = func.name if func.info is FUNC_NO_INFO else f"{func.info.name}.{func.name}"
        plugin.fail(call.api, CODE, "tool-returns-str", func, name=name)  # at the `def`

    for shape in shapes:
        for name in shape.decorators:
            plugin.on_function(name, check)
        for owner in shape.instances:
            for attribute in shape.attributes:
                plugin.on_method(f"{owner}.{attribute}", check)


def _applied(expr: object) -> str | None:
    if isinstance(expr, CallExpr):
        expr = expr.callee
    return expr.fullname if isinstance(expr, RefExpr) else None
