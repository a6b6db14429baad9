from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check, holder, holds_result, stringifies_result
from toolwire.lint.messages import message

_REPR = frozenset({ord("r"), ord("a")})  # `!r` and `!a` are repr, whatever `format` does


class ResultFormatted(Check):
    code = "TW202"

    def visit_JoinedStr(self, node: ast.JoinedStr, ctx: Context) -> None:
        for part in node.values:
            if isinstance(part, ast.FormattedValue) and (
                holds_result if part.conversion in _REPR else stringifies_result
            )(ctx, part.value):
                # at the interpolation, where the type layer (mypy) puts it too
                self._report(ctx, part.value, "f-string", part.value)
                return

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        left, right = node.left, node.right
        index = ctx.facts.index
        if (
            isinstance(node.op, ast.Mod)
            and index.percent
            and _is_str(ctx, left)
            and holds_result(ctx, right)
        ):
            self._report(ctx, node, "%-format", right)
        elif isinstance(node.op, ast.Add) and index.concat:
            for this, other in ((left, right), (right, left)):
                if holds_result(ctx, this) and _is_str(ctx, other):
                    self._report(ctx, node, "str +", this)
                    return
            # A result has no `+`: two of them added is str code whose strs became
            # results (`feed(x) + flush()` after a migration). Lists of them concatenate.
            if _single(ctx, left) and _single(ctx, right):
                self._report(ctx, node, "+", left)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        if (
            isinstance(node.op, ast.Add)
            and ctx.facts.index.concat
            and _is_str(ctx, node.target)
            and holds_result(ctx, node.value)
        ):
            self._report(ctx, node, "str +=", node.value)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if (
            not isinstance(func, ast.Attribute)
            or func.attr not in ctx.facts.index.formatter_methods
        ):
            return
        if _is_str(ctx, func.value):
            arguments = [*node.args, *(k.value for k in node.keywords)]
        elif ctx.qualify(func.value) == "builtins.str":
            arguments = [*node.args[1:], *(k.value for k in node.keywords)]
        else:
            return
        if func.attr == "join":
            arguments = arguments[:1]
        # `"{}".format(x)` is `format(x)`; a template that may say `!r` is not judged safe
        template = func.value
        safe = (
            func.attr == "format"
            and isinstance(template, ast.Constant)
            and "!" not in str(template.value)
        )
        for argument in arguments:
            if (stringifies_result if safe else holds_result)(ctx, argument):
                self._report(ctx, node, f"str.{func.attr}()", argument)
                return

    def _report(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        self.report(ctx, node, message(self.code, "format", form=form, value=holder(ctx, value)))


def _single(ctx: Context, node: ast.expr) -> bool:
    """A single result, and nothing that could hold one (a list, a mapping)."""
    return ctx.labels(node) & L.WHOLE == L.RESULT


def _is_str(ctx: Context, node: ast.expr) -> bool:
    return bool(ctx.labels(node) & L.STR)
