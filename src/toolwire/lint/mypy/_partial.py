"""`functools.partial(send, call_id)(result)`: the call a partial makes, checked as a call
of the function (or method) it wraps.

mypy's own functools plugin types the call (its hook runs first, so the types stay
exactly mypy's); the wrapped function's own hooks then see the call's arguments at the
function's parameters. The arguments bound when the partial was made are not seen here:
only the ones given at the call.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_POS, ARG_STAR, ArgKind, Decorator, Expression, FuncDef
from mypy.plugin import FunctionContext, MethodContext
from mypy.plugins.functools import partial_call_callback
from mypy.types import CallableType, Instance, ProperType, Type, TypeType, get_proper_type
from mypy.typevars import fill_typevars

PARTIAL_CALL = "functools.partial.__call__"

FunctionHook = Callable[[FunctionContext], Type]
MethodHook = Callable[[MethodContext], Type]


def partial_call(
    ctx: MethodContext,
    function_hook: Callable[[str], FunctionHook | None],
    method_hook: Callable[[str], MethodHook | None],
) -> Type:
    typed = partial_call_callback(ctx)
    receiver = ctx.type
    if not isinstance(receiver, Instance) or receiver.extra_attrs is None or len(ctx.args) != 2:
        return typed
    partial = get_proper_type(receiver.extra_attrs.attrs.get("__mypy_partial"))
    if not isinstance(partial, CallableType):
        return typed
    definition = partial.definition
    if isinstance(definition, Decorator):  # `@classmethod def tool_result(cls, ...)`
        definition = definition.func
    if not isinstance(definition, FuncDef):
        return typed
    names = list(definition.arg_names)
    owner: ProperType | None = None
    if definition.info and not definition.is_static:  # a method (FUNC_NO_INFO is falsy)
        names = names[1:]  # `self` or `cls`, bound
        instance = fill_typevars(definition.info)
        owner = TypeType.make_normalized(instance) if definition.is_class else instance
    function = function_hook(definition.fullname) if owner is None else None
    method = method_hook(definition.fullname) if owner is not None else None
    if function is None and method is None:
        return typed
    at = {name: i for i, name in enumerate(names) if name is not None}
    args: list[list[Expression]] = [[] for _ in names]
    types: list[list[Type]] = [[] for _ in names]
    kinds: list[list[ArgKind]] = [[] for _ in names]
    given: list[list[str | None]] = [[] for _ in names]
    # the call's positional arguments fill the partial's remaining positional parameters
    remaining = [
        n for n, k in zip(partial.arg_names, partial.arg_kinds, strict=True) if k.is_positional()
    ]
    for j, expr in enumerate(ctx.args[0]):
        if ctx.arg_kinds[0][j] == ARG_STAR or j >= len(remaining):
            return typed  # `*args`: which parameter each fills is not known
        index = at.get(remaining[j] or "")
        if index is not None:
            args[index].append(expr)
            types[index].append(ctx.arg_types[0][j])
            kinds[index].append(ARG_POS)
            given[index].append(None)
    for j, expr in enumerate(ctx.args[1]):
        name = ctx.arg_names[1][j]
        index = at.get(name or "")
        if index is not None:
            args[index].append(expr)
            types[index].append(ctx.arg_types[1][j])
            kinds[index].append(ctx.arg_kinds[1][j])
            given[index].append(name)
    if function is not None:
        function(FunctionContext(types, kinds, names, given, typed, args, ctx.context, ctx.api))
    elif method is not None and owner is not None:
        context = MethodContext(
            owner, types, kinds, names, given, typed, args, ctx.context, ctx.api
        )
        method(context)
    return typed
