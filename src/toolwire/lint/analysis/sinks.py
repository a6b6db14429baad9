"""The sink matchers: which parts of a call or a dict literal a configured sink sends
(the wire, a prompt, resumable state), read by the value flow and by the checks."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.names import Matcher, class_matcher, matches
from toolwire.lint.config import CallSink, MessageSink


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


def item_sink_payloads(
    node: ast.Assign, ctx: Context, table: dict[str, list[CallSink]]
) -> Iterator[tuple[str, ast.expr]]:
    """(sink name, payload) for `x[key] = value` where a configured sink is the
    `__setitem__` of `x`'s class (`tool_context.state["k"] = v`, ADK's `State`): the item
    assignment is that method's call, with (key, value) as its arguments. `x` is typed as
    for a method sink: an annotation, a constructor, the model's `instance-attributes`."""
    if not table:
        return
    for target in node.targets:
        if not isinstance(target, ast.Subscript):
            continue
        receiver = ctx.labels(target.value) & ctx.facts.receivers
        if not receiver:
            continue
        arguments = (target.slice, node.value)
        for method in ctx.facts.method_targets(receiver, "__setitem__"):
            for sink in _sinks_of(table, method):
                if sink.any_argument:
                    yield from ((sink.label, a) for a in arguments)
                elif sink.index is not None and sink.index < len(arguments):
                    yield sink.label, arguments[sink.index]


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


def egress_payloads(node: ast.Call | ast.Dict, ctx: Context) -> Iterator[tuple[str, ast.expr]]:
    """(sink name, payload) at an egress sink: a prompt, a user or system message."""
    if isinstance(node, ast.Call):
        yield from call_sink_payloads(node, ctx, ctx.facts.egress_sinks)
    elif ctx.facts.egress_message_sinks:
        yield from message_sink_payloads(node, ctx, ctx.facts.egress_message_sinks)
