"""What checks share: the base class and the sink and result-mapping matchers."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from typing import ClassVar

from toolwire.analysis import labels as L
from toolwire.analysis.facts import Matcher, class_matcher, matches
from toolwire.analysis.flow import Context
from toolwire.config import CallSink, MessageSink


class Check:
    """A rule's logic. Subclasses set `code` and define `visit_<ast node type>` methods."""

    code: ClassVar[str]

    def report(self, ctx: Context, node: ast.AST, message: str, fix: str | None = None) -> None:
        ctx.report(self.code, node, message, fix)


def call_sink_payloads(
    node: ast.Call, ctx: Context, table: dict[str, list[CallSink]]
) -> Iterator[tuple[str, ast.expr]]:
    """(sink name, payload) for each argument of `node` that a configured sink names."""
    if not table:
        return
    func = node.func
    target = ctx.qualify(func)
    if target is not None:
        sinks = _sinks_of(table, target)
    elif isinstance(func, ast.Attribute):
        # `history.add_message(...)`: by the receiver's type, when it has one
        receiver = ctx.labels(func.value) & ctx.facts.receivers
        if not receiver:
            return
        targets = ctx.facts.method_targets(receiver, func.attr)
        sinks = [s for t in targets for s in _sinks_of(table, t)]
    else:
        return
    for sink in sinks:
        label = sink.label
        if sink.any_argument:
            for arg in node.args:
                yield label, arg.value if isinstance(arg, ast.Starred) else arg
            for keyword in node.keywords:
                yield label, keyword.value
            continue
        for keyword in node.keywords:
            if sink.name is not None and keyword.arg == sink.name:
                yield label, keyword.value
        if sink.index is not None and sink.index < len(node.args):
            before = node.args[: sink.index + 1]
            if not any(isinstance(a, ast.Starred) for a in before):
                yield label, node.args[sink.index]


def _sinks_of(table: dict[str, list[CallSink]], target: str) -> list[CallSink]:
    """The sinks of `target`: by name, else a re-export of the same class or function
    under the sink's package (`pkg.sub.Message` for a sink named `pkg.Message`)."""
    found = table.get(target)
    if found is not None:
        return found
    tail = target.rpartition(".")[2]
    return [
        sink
        for name, sinks in table.items()
        if name.endswith(tail) and matches(target, _matcher(name))
        for sink in sinks
    ]


@cache
def _matcher(name: str) -> Matcher:
    return class_matcher((name,))


def message_sink_payloads(
    node: ast.Dict, ctx: Context, sinks: tuple[MessageSink, ...] | None = None
) -> Iterator[tuple[str, ast.expr]]:
    """(sink name, payload) for a dict literal that a message-literal sink describes."""
    if sinks is None:
        sinks = ctx.facts.message_sinks
    if not sinks:
        return
    fields = constant_fields(node)
    for sink in sinks:
        discriminator = fields.get(sink.key)
        if (
            isinstance(discriminator, ast.Constant)
            and discriminator.value == sink.value
            and sink.payload in fields
        ):
            yield f'{{"{sink.key}": "{sink.value}"}}', fields[sink.payload]


def constant_fields(node: ast.Dict) -> dict[str, ast.expr]:
    return {
        key.value: value
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }


def result_mapping_fields(node: ast.Dict | ast.Call) -> dict[str, ast.expr] | None:
    """The fields of a FlowDrop-shaped result mapping (`success` and `data` keys), else None."""
    if isinstance(node, ast.Dict):
        fields = constant_fields(node)
    else:
        fields = {k.arg: k.value for k in node.keywords if k.arg is not None}
    return fields if "success" in fields and "data" in fields else None


def is_empty_collection(node: ast.expr) -> bool:
    if isinstance(node, ast.List | ast.Tuple) and not node.elts:
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "tuple")
        and not node.args
        and not node.keywords
    )


def holds_result(ctx: Context, node: ast.expr) -> bool:
    return L.holds_result(ctx.labels(node))


def stringifies_result(ctx: Context, node: ast.expr) -> bool:
    """`str()` or `format()` of `node` makes text of a result's run-only fields."""
    return L.stringifies_result(ctx.labels(node))


def holder(ctx: Context, node: ast.expr) -> str:
    """`ToolResult r` or `rs, which holds ToolResults`, for messages; the result type's
    own name where it is known (`ToolMessage message`)."""
    labels = ctx.labels(node)
    name = ctx.facts.result_name(labels)
    if labels & L.RESULT:
        return f"{name} {ctx.describe(node)}"
    return f"{ctx.describe(node)}, which holds {name}s"


def egress_payloads(node: ast.Call | ast.Dict, ctx: Context) -> Iterator[tuple[str, ast.expr]]:
    """(sink name, payload) at an egress sink: a prompt, a user or system message."""
    if isinstance(node, ast.Call):
        yield from call_sink_payloads(node, ctx, ctx.facts.egress_sinks)
    elif ctx.facts.egress_message_sinks:
        yield from message_sink_payloads(node, ctx, ctx.facts.egress_message_sinks)


def returns_to_wire(ctx: Context, value: ast.expr) -> ast.expr | None:
    """The part of `value`, returned by the function being interpreted, that its
    framework sends (None: nothing of it is sent)."""
    scope = ctx.scope
    node = scope.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    return ctx.facts.returns_to_wire(node, scope.cls, value)
