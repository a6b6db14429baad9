from __future__ import annotations

import ast
from collections.abc import Iterator

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check, holder
from toolwire.lint.messages import message

# Methods of a mapping whose first argument is a key (`d.get(r)`): a str key before the
# migration, a ToolResult after, which no str key equals.
_KEY_METHODS = frozenset({"get", "pop", "setdefault"})


class ResultUsedAsStr(Check):
    code = "TW106"

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        # A method read, not called (`handler = text.strip`); a called one is the Call's.
        if node.attr in ctx.facts.index.str_methods and _whole(ctx, node.value):
            self._report(ctx, node, f".{node.attr}", node.value)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in ctx.facts.index.str_methods
            and _whole(ctx, func.value)
        ):
            self._report(ctx, node, f".{func.attr}()", func.value)
            return
        if len(node.args) != 1 or node.keywords:
            if (
                isinstance(func, ast.Attribute)
                and func.attr in _KEY_METHODS
                and node.args
                and _whole(ctx, node.args[0])
                and not _whole(ctx, func.value)
            ):
                self._key(ctx, node, f".{func.attr}()", node.args[0])
            return
        arg = node.args[0]
        target = ctx.qualify(func)
        if target == "builtins.len" and _whole(ctx, arg):
            self._report(ctx, node, "len()", arg)
        elif target == "builtins.bool":
            for tested in _tested(arg):
                self._truth(ctx, node, "bool()", tested)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in _KEY_METHODS
            and _whole(ctx, arg)
            and not _whole(ctx, func.value)
        ):
            self._key(ctx, node, f".{func.attr}()", arg)

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if _whole(ctx, node.value):
            form = "a slice" if isinstance(node.slice, ast.Slice) else "an index"
            self._report(ctx, node, form, node.value)
        elif _whole(ctx, node.slice):
            self._key(ctx, node, "a subscript", node.slice)

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.In | ast.NotIn):
                if _whole(ctx, right):
                    self._report(ctx, node, "`in`", right)
                    return
                if _whole(ctx, left) and _holds_text(ctx, right):
                    self._compare(
                        ctx, node, "`not in`" if isinstance(op, ast.NotIn) else "`in`", left
                    )
                    return
            elif isinstance(op, ast.Eq | ast.NotEq):
                form = "`==`" if isinstance(op, ast.Eq) else "`!=`"
                for value, other in ((left, right), (right, left)):
                    if _whole(ctx, value) and _text(ctx, other):
                        self._compare(ctx, node, form, value)
                        return
            left = right

    def visit_Match(self, node: ast.Match, ctx: Context) -> None:
        subject = node.subject
        if _whole(ctx, subject) and any(_text_pattern(c.pattern) for c in node.cases):
            self.report(ctx, subject, message(self.code, "match", value=holder(ctx, subject)))

    # -- truth tests: a ToolResult is always true, the str it replaced was not when empty --

    def visit_If(self, node: ast.If, ctx: Context) -> None:
        self._tests(ctx, node.test, "`if`")

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        self._tests(ctx, node.test, "`while`")

    def visit_IfExp(self, node: ast.IfExp, ctx: Context) -> None:
        self._tests(ctx, node.test, "`... if ... else`")

    def visit_Assert(self, node: ast.Assert, ctx: Context) -> None:
        self._tests(ctx, node.test, "`assert`")

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: Context) -> None:
        if isinstance(node.op, ast.Not):
            self._tests(ctx, node.operand, "`not`")

    def visit_BoolOp(self, node: ast.BoolOp, ctx: Context) -> None:
        form = "`or`" if isinstance(node.op, ast.Or) else "`and`"
        for value in node.values[:-1]:  # the last one's value is taken, not tested
            self._tests(ctx, value, form)

    def visit_ListComp(self, node: ast.ListComp, ctx: Context) -> None:
        self._comprehension(ctx, node.generators)

    def visit_SetComp(self, node: ast.SetComp, ctx: Context) -> None:
        self._comprehension(ctx, node.generators)

    def visit_DictComp(self, node: ast.DictComp, ctx: Context) -> None:
        self._comprehension(ctx, node.generators)

    def visit_GeneratorExp(self, node: ast.GeneratorExp, ctx: Context) -> None:
        self._comprehension(ctx, node.generators)

    def _comprehension(self, ctx: Context, generators: list[ast.comprehension]) -> None:
        for generator in generators:
            for test in generator.ifs:
                self._tests(ctx, test, "`if`")

    def _tests(self, ctx: Context, test: ast.expr, form: str) -> None:
        for tested in _tested(test):
            self._truth(ctx, tested, form, tested)

    def _truth(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        # An Optional result (or one bound to None on some path) is tested for None.
        if ctx.labels(value) & (L.RESULT | L.MAYBE_NONE | L.OTHER) == L.RESULT:
            self.report(ctx, node, message(self.code, "truth", call=form, value=holder(ctx, value)))

    def _compare(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        self.report(ctx, node, message(self.code, "compare", call=form, value=holder(ctx, value)))

    def _key(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        self.report(ctx, node, message(self.code, "key", call=form, value=holder(ctx, value)))

    def _report(self, ctx: Context, node: ast.AST, form: str, value: ast.expr) -> None:
        self.report(ctx, node, message(self.code, "call", call=form, value=holder(ctx, value)))


def _whole(ctx: Context, node: ast.expr) -> bool:
    return bool(ctx.labels(node) & L.RESULT)


def _text(ctx: Context, node: ast.expr) -> bool:
    """Known to be a str (a literal, an f-string, `.content`), and no result."""
    labels = ctx.labels(node)
    return bool(labels & (L.STR | L.CONTENT)) and not labels & L.WHOLE


def _holds_text(ctx: Context, node: ast.expr) -> bool:
    """A str, or a tuple, list, set or dict literal with a str among its items or keys."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_text(ctx, e) for e in node.elts if not isinstance(e, ast.Starred))
    if isinstance(node, ast.Dict):
        return any(k is not None and _text(ctx, k) for k in node.keys)
    return _text(ctx, node)


def _tested(test: ast.expr) -> Iterator[ast.expr]:
    """What a truth test of `test` tests itself: `a and r` tests `r` here (`a` is the
    BoolOp's own), `not r` is the UnaryOp's."""
    while isinstance(test, ast.BoolOp):
        test = test.values[-1]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return
    if isinstance(test, ast.NamedExpr):
        test = test.value
    yield test


def _text_pattern(pattern: ast.pattern) -> bool:
    """A case pattern that matches a str: a str literal, `str()`, or one of them in `|`."""
    match pattern:
        case ast.MatchValue(value=ast.Constant(value=str())):
            return True
        case ast.MatchValue(value=ast.JoinedStr()):
            return True
        case ast.MatchClass(cls=ast.Name(id="str")):
            return True
        case ast.MatchAs(pattern=inner) if inner is not None:
            return _text_pattern(inner)
        case ast.MatchOr(patterns=patterns):
            return any(_text_pattern(p) for p in patterns)
    return False
