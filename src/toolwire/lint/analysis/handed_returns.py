"""Functions whose return value a framework takes (the model's `state-returns` and
`wire-returns`): a LangGraph node handed to `builder.add_node(fn)` (also a lambda or
`functools.partial(fn, ...)`), whose returned dict is
merged into the checkpointed graph state; a CrewAI hook under `@after_tool_call` or given
to `register_after_tool_call_hook(fn)`, whose return replaces the tool's answer. A part of
the module facts."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from toolwire.lint.analysis.names import Names, bound_names, class_matcher, matches
from toolwire.lint.config import CallSink

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def handed_returns(tree: ast.Module, names: Names, specs: tuple[CallSink, ...]) -> dict[int, str]:
    """id of each function handed to a `state-returns` call -> the call's name for messages.

    A method's receiver is typed only from annotations and constructor calls, and only when
    every binding of its name in the module agrees (`builder = StateGraph(State)`); the
    function is named by a plain name defined once in the module, or decorated."""
    owners = class_matcher(tuple(s.target.rpartition(".")[0] for s in specs))
    functions: dict[str, list[_Function]] = {}
    kinds: dict[str, set[str | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, _Function):
            functions.setdefault(node.name, []).append(node)
        for name, kind in _bindings(node, names):
            kinds.setdefault(name, set()).add(kind)
    typed = {
        name: kind
        for name, found in kinds.items()
        if len(found) == 1 and (kind := next(iter(found))) is not None and matches(kind, owners)
    }
    out: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, _Function):
            _decorated(node, names, specs, out)
        if not isinstance(node, ast.Call):
            continue
        call, func = node, node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            kind = typed.get(func.value.id)
            target = f"{kind}.{func.attr}" if kind else names.qualify(func)
        else:
            target = names.qualify(func)
        if target is None:
            continue
        for spec in specs:
            if not matches(target, class_matcher((spec.target,))):
                continue
            for given in _arguments(call, spec):
                if isinstance(given, ast.Lambda):
                    out[id(given)] = spec.label
                    continue
                if (  # `partial(node, ...)`: the node's return is what the graph takes
                    isinstance(given, ast.Call)
                    and given.args
                    and names.qualify(given.func) == "functools.partial"
                ):
                    given = given.args[0]
                defined = functions.get(given.id, []) if isinstance(given, ast.Name) else []
                if len(defined) == 1:
                    out[id(defined[0])] = spec.label
    return out


def _decorated(
    node: _Function, names: Names, specs: tuple[CallSink, ...], out: dict[int, str]
) -> None:
    """`@after_tool_call` or `@after_tool_call(tools=[...])`: the function is handed."""
    for decorator in node.decorator_list:
        func = decorator.func if isinstance(decorator, ast.Call) else decorator
        dotted = names.qualify(func)
        for spec in specs:
            if dotted is not None and matches(dotted, class_matcher((spec.target,))):
                out[id(node)] = spec.label


def _bindings(node: ast.AST, names: Names) -> Iterator[tuple[str, str | None]]:
    """(name, the class it is bound to an instance of, or None) for each binding `node` makes."""
    if isinstance(node, ast.Assign):
        value = node.value
        kind = names.qualify(value.func) if isinstance(value, ast.Call) else None
        for target in node.targets:
            for name in bound_names(target):
                yield name, kind
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        yield node.target.id, _annotated(node.annotation, names)
    elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
        for name in bound_names(node.target):
            yield name, None
    elif isinstance(node, ast.NamedExpr):
        yield node.target.id, None
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        for name in bound_names(node.optional_vars):
            yield name, None
    elif isinstance(node, ast.arguments):
        every = [*node.posonlyargs, *node.args, *node.kwonlyargs]
        every += [a for a in (node.vararg, node.kwarg) if a is not None]
        for arg in every:
            kind = _annotated(arg.annotation, names) if arg.annotation is not None else None
            yield arg.arg, kind


def _annotated(annotation: ast.expr, names: Names) -> str | None:
    if isinstance(annotation, ast.Subscript):  # `StateGraph[State]`
        annotation = annotation.value
    return names.qualify(annotation)


def _arguments(call: ast.Call, spec: CallSink) -> Iterator[ast.expr]:
    for keyword in call.keywords:
        if spec.name is not None and keyword.arg == spec.name:
            yield keyword.value
    if spec.index is not None and spec.index < len(call.args):
        if not any(isinstance(a, ast.Starred) for a in call.args[: spec.index + 1]):
            yield call.args[spec.index]
