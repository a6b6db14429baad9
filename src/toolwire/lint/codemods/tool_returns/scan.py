"""The returns of one function's own scope, and whether a call of it can give `None`
(a bare `return`, a `None` branch, a name bound to `None`, falling off the end)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import cast

import libcst as cst

from toolwire.lint.codemods.names import dotted, target_names
from toolwire.lint.codemods.tool_returns.walk import SCOPE_TYPES, children


@dataclass(slots=True)
class Scan:
    """The returns and yields of one function's own scope (not nested defs, lambdas, classes)."""

    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)
    bare: str = ""
    generator: bool = False
    # (names bound, value or None, annotated Optional) of each assignment
    assigns: list[tuple[list[str], cst.BaseExpression | None, bool]] = field(default_factory=list)

    @classmethod
    def of(cls, func: cst.FunctionDef, yields_possible: bool) -> Scan:
        scan = cls()
        stack: list[tuple[cst.CSTNode, bool]] = [(func.body, False)]
        while stack:
            node, in_except = stack.pop()
            kind = type(node)
            if kind is cst.Return:
                scan.record(cast(cst.Return, node), in_except)
            elif kind is cst.Assign or kind is cst.AnnAssign:
                scan.assigned(cast(cst.Assign | cst.AnnAssign, node))
            if kind in SCOPE_TYPES:
                continue
            inner = in_except or kind is cst.ExceptHandler or kind is cst.ExceptStarHandler
            stack += [(child, inner) for child in children(node, statements=True)]
        if yields_possible:
            scan.generator = has_yield(func.body)
        return scan

    def record(self, node: cst.Return, in_except: bool) -> None:
        value = node.value
        if value is None:
            self.bare = self.bare or "has a bare `return`"
        elif isinstance(value, cst.Name) and value.value == "None" and not value.lpar:
            self.bare = self.bare or "returns `None`"
        self.returns.append((node, in_except))

    def assigned(self, node: cst.Assign | cst.AnnAssign) -> None:
        if isinstance(node, cst.AnnAssign):
            names = list(target_names(node.target))
            self.assigns.append((names, node.value, mentions_none(node.annotation.annotation)))
        else:
            names = [n for t in node.targets for n in target_names(t.target)]
            self.assigns.append((names, node.value, False))

    def nones(self) -> set[str]:
        """The names some assignment may bind to None (`b = a` after `a = None` too): a
        worklist over the names each value may be, linear in the assignments."""
        found: set[str] = set()
        waiting: dict[str, list[list[str]]] = {}  # name -> the targets of values that may be it
        ready: list[list[str]] = []
        for names, value, optional in self.assigns:
            results = result_names(value) if value is not None else []
            if optional or "None" in results:
                ready.append(names)
            for name in results:
                waiting.setdefault(name, []).append(names)
        while ready:
            for name in ready.pop():
                if name not in found:
                    found.add(name)
                    ready += waiting.pop(name, [])
        return found

    def none_path(self, func: cst.FunctionDef) -> str:
        """Why a call of `func` may give None other than by `return None`, or ""."""
        nones = self.nones() if self.assigns else set()
        for node, _ in self.returns:
            results = result_names(node.value) if node.value is not None else []
            if "None" in results:
                return "returns a value that can be `None` (a `None` branch or operand)"
            named = next((n for n in results if n in nones), None)
            if named is not None:
                return f"returns `{named}`, which can be `None`"
        if not is_declaration(func.body) and not suite_ends(func.body):
            return "can reach its end, which returns `None`"
        return ""


def result_names(value: cst.BaseExpression) -> list[str]:
    """The names whose value the expression's value can be: itself, a ternary's branches,
    a boolean operand, a walrus's value. A loop, not recursion: a chain of thousands of
    ternaries must not overflow."""
    found: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node.value)
        elif isinstance(node, cst.IfExp):
            stack += (node.body, node.orelse)
        elif isinstance(node, cst.BooleanOperation):
            stack += (node.left, node.right)
        elif isinstance(node, cst.NamedExpr):
            stack.append(node.value)
    return found


def mentions_none(annotation: cst.BaseExpression) -> bool:
    """`Optional[...]`, `X | None`, `Union[..., None]`: an annotation that admits None."""
    stack = [annotation]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            if node.value == "None":
                return True
        elif isinstance(node, cst.BinaryOperation):
            stack += (node.left, node.right)
        elif isinstance(node, cst.Subscript):
            if (dotted(node.value) or "").rpartition(".")[2] == "Optional":
                return True
            stack += [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        elif isinstance(node, cst.SimpleString):
            if "None" in node.value or "Optional" in node.value:
                return True
    return False


def is_declaration(suite: cst.BaseSuite) -> bool:
    """A body of only a docstring, `pass`, `...`: a declaration, not an implementation."""
    for statement in suite_smalls(suite):
        if isinstance(statement, cst.Pass):
            continue
        if isinstance(statement, cst.Expr) and isinstance(
            statement.value, cst.Ellipsis | cst.SimpleString | cst.ConcatenatedString
        ):
            continue
        return False
    return True


def suite_smalls(suite: cst.BaseSuite) -> Iterator[cst.CSTNode]:
    """The statements of a suite, each simple line's small statements one by one."""
    if isinstance(suite, cst.SimpleStatementSuite):
        yield from suite.body
        return
    assert isinstance(suite, cst.IndentedBlock)
    for statement in suite.body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        else:
            yield statement


def suite_ends(suite: cst.BaseSuite | None) -> bool:
    """Control never reaches the end of the suite: some statement returns or raises on
    every path. Loops that may not run, and calls, are assumed to come back."""
    return suite is not None and any(stops(s) for s in suite_smalls(suite))


def stops(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Return | cst.Raise):
        return True
    if isinstance(node, cst.Assert):
        return isinstance(node.test, cst.Name) and node.test.value == "False"
    if isinstance(node, cst.If):
        orelse = node.orelse
        if orelse is None or not suite_ends(node.body):
            return False
        return stops(orelse) if isinstance(orelse, cst.If) else suite_ends(orelse.body)
    if isinstance(node, cst.Try | cst.TryStar):
        if node.finalbody is not None and suite_ends(node.finalbody.body):
            return True
        ran = suite_ends(node.body) or (node.orelse is not None and suite_ends(node.orelse.body))
        return ran and all(suite_ends(h.body) for h in node.handlers)
    if isinstance(node, cst.With):
        return suite_ends(node.body)
    if isinstance(node, cst.While | cst.For):
        if breaks(node.body):
            return False
        if isinstance(node, cst.While) and _always_true(node.test):
            return True
        return node.orelse is not None and suite_ends(node.orelse.body)
    if isinstance(node, cst.Match):
        return any(_irrefutable(c) for c in node.cases) and all(
            suite_ends(c.body) for c in node.cases
        )
    return False


def _always_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "True"
    return isinstance(test, cst.Integer) and test.evaluated_value != 0


def _irrefutable(case: cst.MatchCase) -> bool:
    pattern = case.pattern
    if case.guard is not None:
        return False
    if isinstance(pattern, cst.MatchOr):
        return any(
            isinstance(p.pattern, cst.MatchAs) and p.pattern.pattern is None
            for p in pattern.patterns
        )
    return isinstance(pattern, cst.MatchAs) and pattern.pattern is None


def breaks(suite: cst.BaseSuite) -> bool:
    """A `break` of this loop (not of a loop inside it, nor of a nested def)."""
    stack: list[cst.CSTNode] = [suite]
    while stack:
        node = stack.pop()
        if type(node) is cst.Break:
            return True
        if type(node) in SCOPE_TYPES or isinstance(node, cst.For | cst.While):
            continue
        stack += children(node, statements=True)
    return False


def has_yield(root: cst.CSTNode) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.Yield:
            return True
        if type(node) not in SCOPE_TYPES:
            stack += children(node)
    return False
