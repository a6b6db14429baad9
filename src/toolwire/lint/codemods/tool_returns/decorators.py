"""Decorators that hand a tool method's return value back unchanged: known ones from the
standard library, and this module's own pass-through decorators (`functools.wraps`)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from toolwire.lint.codemods.names import ModuleNames, dotted
from toolwire.lint.codemods.tool_returns.scan import Scan, suite_ends, suite_smalls
from toolwire.lint.codemods.tool_returns.structure import ToolMethod

# Decorators known to hand a method's return value back unchanged (a bare builtin name
# is the builtin only while the module does not bind it).
_PASS_THROUGH = frozenset(
    {
        "staticmethod",
        "classmethod",
        "abc.abstractmethod",
        "typing.override",
        "typing_extensions.override",
        "typing.final",
        "typing_extensions.final",
        "typing.no_type_check",
        "typing.overload",
        "typing_extensions.overload",
        "functools.wraps",
        "functools.cache",
        "functools.lru_cache",
        "warnings.deprecated",
        "typing_extensions.deprecated",
    }
)


def passing_decorators(body: Sequence[cst.BaseStatement]) -> frozenset[str]:
    """This module's top-level decorators that hand the return value back unchanged:
    `def d(fn): return fn`, and `def d(fn)` whose `functools.wraps(fn)` wrapper only
    ever returns `fn(...)` (or awaits it)."""
    found: set[str] = set()
    for statement in body:
        if not isinstance(statement, cst.FunctionDef) or statement.decorators:
            continue
        params = statement.params
        if len(params.params) != 1 or params.posonly_params or params.kwonly_params:
            continue
        fn = params.params[0].name.value
        smalls = [s for s in suite_smalls(statement.body) if not is_docstring_expr(s)]
        if not smalls or not isinstance(smalls[-1], cst.Return):
            continue
        returned = smalls[-1].value
        if not isinstance(returned, cst.Name):
            continue
        if returned.value == fn and len(smalls) == 1:
            found.add(statement.name.value)
            continue
        if len(smalls) == 2 and isinstance(smalls[0], cst.FunctionDef):
            inner = smalls[0]
            if inner.name.value == returned.value and wrapper_passes(inner, fn):
                found.add(statement.name.value)
    return frozenset(found)


def is_docstring_expr(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Expr) and isinstance(
        node.value, cst.SimpleString | cst.ConcatenatedString
    )


def wrapper_passes(inner: cst.FunctionDef, fn: str) -> bool:
    """`@functools.wraps(fn)` on `inner`, and every return of it is `fn(...)`."""
    if len(inner.decorators) != 1:
        return False
    wraps = inner.decorators[0].decorator
    if not (
        isinstance(wraps, cst.Call)
        and (dotted(wraps.func) or "").rpartition(".")[2] == "wraps"
        and len(wraps.args) == 1
        and isinstance(wraps.args[0].value, cst.Name)
        and wraps.args[0].value.value == fn
    ):
        return False
    scan = Scan.of(inner, yields_possible=True)
    if scan.generator or not scan.returns or not suite_ends(inner.body):
        return False
    for node, _ in scan.returns:
        value = node.value
        if isinstance(value, cst.Await):
            value = value.expression
        if not (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value == fn
        ):
            return False
    return True


def unknown_decorator(entry: ToolMethod, names: ModuleNames, passing: frozenset[str]) -> str:
    """The first decorator that gets the method's return value and is not known to
    hand it back unchanged; a function tool's adapter goes right under the framework's
    decorator, so only the ones below that count."""
    for decorator in entry.node.decorators[entry.decorator + 1 :]:
        expr = decorator.decorator
        called = expr.func if isinstance(expr, cst.Call) else expr
        name = dotted(called)
        if name is None:
            return "an expression"
        target = names.resolve(called)
        if name in names.other or name.partition(".")[0] in names.other:
            if name not in passing:
                return name
        elif target not in _PASS_THROUGH:
            return name
    return ""
