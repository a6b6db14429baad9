"""What checks share: the base class and the result-mapping and message helpers (the sink
matchers are the analysis layer's: `toolwire.lint.analysis.sinks`)."""

from __future__ import annotations

import ast
from typing import ClassVar

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.sinks import constant_fields


class Check:
    """A rule's logic. Subclasses set `code` and define `visit_<ast node type>` methods."""

    code: ClassVar[str]

    def report(self, ctx: Context, node: ast.AST, message: str, fix: str | None = None) -> None:
        ctx.report(self.code, node, message, fix)


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


def returns_to_wire(ctx: Context, value: ast.expr) -> ast.expr | None:
    """The part of `value`, returned by the function being interpreted, that its
    framework sends (None: nothing of it is sent)."""
    scope = ctx.scope
    node = scope.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    return ctx.facts.returns_to_wire(node, scope.cls, value)
