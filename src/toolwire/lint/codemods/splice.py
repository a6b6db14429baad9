"""The text of a rewritten module, generated only where the rewrite changed its tree.

LibCST trees are immutable: a statement a rewrite left alone is the very object (`is`)
of the old tree, and its text is the original's. Only the statements that differ are
generated, at any block depth (a tool is most often a method of a big class); each goes
where the old one was. The place comes from the `ast` tree's line numbers, and is
checked: the old statement's own codegen must be the text found there. Anything else
gives None, and the caller generates the whole module (`Module.code`).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

import libcst as cst
from libcst._nodes.internal import CodegenState

__all__ = ["Spliced", "generated", "splice"]


@dataclasses.dataclass(frozen=True, slots=True)
class Spliced:
    code: str  # the new module's text, exactly `after.code`
    old: tuple[str, ...]  # the original text of each part that was replaced
    new: tuple[str, ...]  # the text that replaced it, in the same order


class _Unsure(Exception):
    pass


def splice(before: cst.Module, text: str, tree: ast.Module, after: cst.Module) -> Spliced | None:
    """`after.code`, where `after` is a rewrite of `before` (parsed from `text`, and by
    `ast` as `tree`); None when it cannot be made safely by parts."""
    if after is before:
        return Spliced(text, (), ())
    # `ast` and LibCST agree on line numbers where every line ends with "\n".
    if "\r" in text or not text.endswith("\n") or not _same_but(before, after, _BODY):
        return None
    parts = _Parts(before, text)
    try:
        parts.block(before.body, after.body, tree.body, ())
    except (_Unsure, IndexError):
        return None
    pieces: list[str] = []
    cursor = 0
    for start, end, _, new in parts.found:
        if start < cursor:
            return None
        pieces += [text[cursor:start], new]
        cursor = end
    pieces.append(text[cursor:])
    found = parts.found
    return Spliced("".join(pieces), tuple(p[2] for p in found), tuple(p[3] for p in found))


def generated(before: cst.Module, text: str, tree: ast.Module, after: cst.Module) -> str:
    """`after.code`, by parts when it can be."""
    spliced = splice(before, text, tree, after)
    return after.code if spliced is None else spliced.code


_FIELDS: dict[type, tuple[str, ...]] = {}


_BODY = frozenset(("body",))
_RETURNS = frozenset(("body", "returns"))
_ANNOTATION = frozenset(("annotation",))
_VALUE = frozenset(("value",))


def _same_but(old: cst.CSTNode, new: cst.CSTNode, names: frozenset[str]) -> bool:
    """Every field not in `names` is the same object (a sequence: the same objects)."""
    if type(old) is not type(new):
        return False
    kind = type(old)
    every = _FIELDS.get(kind)
    if every is None:
        every = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    for field in every:
        a, b = getattr(old, field), getattr(new, field)
        if field in names or a is b:
            continue
        if not (isinstance(a, tuple | list) and isinstance(b, tuple | list) and len(a) == len(b)):
            return False
        if any(x is not y for x, y in zip(a, b, strict=True)):
            return False
    return True


_NESTED = (cst.ClassDef, cst.FunctionDef)
_CLAUSES = frozenset(("body", "orelse", "handlers", "finalbody"))
_Block = tuple[cst.IndentedBlock, cst.IndentedBlock, list[ast.stmt]]


def _blocks(old: cst.CSTNode, new: cst.CSTNode, node: ast.stmt) -> list[_Block] | None:
    """The blocks that differ between two versions of a compound statement, with their
    `ast` statements, in the order of the text; None unless nothing else differs (the
    first lines of a class or function may)."""
    if type(old) is not type(new) or not isinstance(old, cst.BaseCompoundStatement):
        return None
    head = not _same_but(old, new, _CLAUSES)  # first lines differ: a class or function only
    if head and not isinstance(old, _NESTED):
        return None
    if isinstance(old, _NESTED) != isinstance(
        node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
    ):
        return None
    found: list[_Block] = []
    for name in ("body", "handlers", "orelse", "finalbody"):
        one: Any = getattr(old, name, None)
        other: Any = getattr(new, name, None)
        if one is other and not (head and name == "body"):
            continue
        if name == "orelse" and not (isinstance(one, cst.Else) and isinstance(other, cst.Else)):
            return None  # `elif`: its own statement, not a block of this one
        nodes: Any = getattr(node, name, None)
        pairs: list[tuple[Any, Any, Any]]
        if name == "body":
            pairs = [(old, new, nodes)]
        elif name == "handlers":
            if len(one) != len(other) or len(one) != len(nodes):
                return None
            pairs = [
                (h, g, n.body) for h, g, n in zip(one, other, nodes, strict=True) if h is not g
            ]
        else:
            pairs = [(one, other, nodes)]
        for clause, changed, body in pairs:
            if not (isinstance(clause, cst.CSTNode) and isinstance(changed, cst.CSTNode)):
                return None
            if clause is not old and not _same_but(clause, changed, _BODY):
                return None  # `except X:`, `else:`, `finally:` the same, or no parts
            block, other_block = getattr(clause, "body", None), getattr(changed, "body", None)
            if not (
                isinstance(block, cst.IndentedBlock)
                and isinstance(other_block, cst.IndentedBlock)
                and block.body
                and other_block.body
                and isinstance(body, list)
                and body
                and _same_but(block, other_block, _BODY)
            ):
                return None
            found.append((block, other_block, body))
    return found


class _Stopped(Exception):
    pass


class _Until(CodegenState):
    """Codegen that stops where `stop` begins."""

    stop: cst.CSTNode | None = None

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node is self.stop:
            raise _Stopped


class _Parts:
    """The replaced parts of a module: (start, end, old text, new text), in order."""

    def __init__(self, module: cst.Module, text: str) -> None:
        self.module = module
        self.text = text
        # offset of line k (1-based) at index k; index 0 is no line
        self.starts = [-1, 0, *accumulate(len(line) + 1 for line in text.split("\n"))]
        self.found: list[tuple[int, int, str, str]] = []

    def block(
        self,
        old: Sequence[cst.BaseStatement],
        new: Sequence[cst.BaseStatement],
        nodes: list[ast.stmt],
        indents: tuple[str, ...],
    ) -> None:
        firsts = _firsts(old, nodes)
        last = nodes[-1]
        if len(old) == len(new):
            self.pairs(old, new, firsts, 0, len(old), indents, last)
            return
        # Statements added or removed (imports): the pairs at both ends are found as
        # pairs, what lies between is one part.
        least = min(len(old), len(new))
        head = 0
        while head < least and self.paired(old[head], new[head], firsts[head]):
            head += 1
        tail = 0
        while tail < least - head and self.paired(
            old[-1 - tail], new[-1 - tail], firsts[-1 - tail]
        ):
            tail += 1
        end = len(old) - tail
        if head == end:  # an insertion: it takes a neighbour along, the one with fewer lines
            if tail == 0 or (head and _size(firsts[head - 1]) <= _size(firsts[end])):
                head -= 1
            else:
                tail -= 1
                end += 1
        self.pairs(old, new, firsts, 0, head, indents, last)
        self.replace(old, firsts, head, end, new[head : len(new) - tail], indents, last)
        shift = len(new) - len(old)
        for i in range(end, len(old)):
            if old[i] is not new[i + shift]:
                self.inside(old[i], new[i + shift], firsts[i], indents)

    def paired(self, old: cst.BaseStatement, new: cst.BaseStatement, node: ast.stmt) -> bool:
        return old is new or self.nested(old, new, node)

    def pairs(
        self,
        old: Sequence[cst.BaseStatement],
        new: Sequence[cst.BaseStatement],
        firsts: list[ast.stmt],
        i: int,
        b: int,
        indents: tuple[str, ...],
        last: ast.stmt,
    ) -> None:
        """The parts of old[i:b] against new[i:b], statement by statement (`last`: the
        block's last `ast` statement)."""
        while i < b:
            if old[i] is new[i]:
                i += 1
            elif self.nested(old[i], new[i], firsts[i]):
                self.inside(old[i], new[i], firsts[i], indents)
                i += 1
            else:
                j = i + 1
                while j < b and not self.paired(old[j], new[j], firsts[j]):
                    j += 1
                self.replace(old, firsts, i, j, new[i:j], indents, last)
                i = j

    def inside(
        self,
        old: cst.BaseStatement,
        new: cst.BaseStatement,
        node: ast.stmt,
        indents: tuple[str, ...],
    ) -> None:
        """The parts of a compound statement found inside its blocks; the first lines of a
        class or function (decorators, `def`, bases) are one part of their own when they
        changed."""
        blocks = _blocks(old, new, node)
        assert blocks is not None
        if not _same_but(old, new, _CLAUSES):
            assert isinstance(old, _NESTED) and isinstance(new, _NESTED)
            start = self.start(old, node, indents)
            body = blocks[0]
            end = self.start(body[0].body[0], body[2][0], (*indents, _indent(body[0], self.module)))
            head = self.swapped(old, new, node, start, end) or self.head(new, indents)
            self.found.append((start, end, self.text[start:end], head))
        for one, other, nodes in blocks:
            self.block(one.body, other.body, nodes, (*indents, _indent(one, self.module)))

    def head(self, node: cst.ClassDef | cst.FunctionDef, indents: tuple[str, ...]) -> str:
        """The code of `node` up to its first statement's leading lines."""
        assert isinstance(node.body, cst.IndentedBlock)
        state = _Until(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            indent_tokens=list(indents),
            tokens=[],
        )
        state.stop = node.body.body[0]
        try:
            node._codegen(state)
        except _Stopped:
            return "".join(state.tokens)
        raise _Unsure

    def swapped(
        self,
        old: cst.BaseStatement,
        new: cst.BaseStatement,
        node: ast.stmt,
        start: int,
        end: int,
    ) -> str | None:
        """The new first lines of a function whose return annotation alone changed, made
        from the old text (`text[start:end]`, the old ones) with the annotation's code
        swapped; None when that is not the only change or the old annotation's code is not
        the text where `ast` puts it."""
        if not (
            type(old) is cst.FunctionDef
            and type(new) is cst.FunctionDef
            and old.returns is not None
            and new.returns is not None
            and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.returns is not None
            and node.returns.lineno == node.returns.end_lineno
            and _same_but(old, new, _RETURNS)
            and _same_but(old.returns, new.returns, _ANNOTATION)
        ):
            return None
        line = node.returns.lineno
        a = self.offset(line, node.returns.col_offset)
        b = self.offset(line, node.returns.end_col_offset or 0)
        was = old.returns.annotation
        if not (start <= a <= b <= end) or self.text[a:b] != self.code([was], ()):
            return None
        return self.text[start:a] + self.code([new.returns.annotation], ()) + self.text[b:end]

    def line_end(self, statement: cst.BaseStatement, last: ast.stmt) -> int:
        """Where a simple statement line ends whose last `ast` statement is `last`: with
        the line `last` ends on, unless that line ends in a backslash (a continuation, or a
        comment's last character); -1 when not known so."""
        if type(statement) is not cst.SimpleStatementLine or last.end_lineno is None:
            return -1
        end = self.starts[last.end_lineno + 1]
        return -1 if self.text[end - 2 : end] == "\\\n" else end

    @staticmethod
    def nested(old: cst.BaseStatement, new: cst.BaseStatement, node: ast.stmt) -> bool:
        """A compound statement whose parts are found inside its blocks."""
        return _blocks(old, new, node) is not None

    def replace(
        self,
        old: Sequence[cst.BaseStatement],
        firsts: list[ast.stmt],
        a: int,
        b: int,
        new: Sequence[cst.BaseStatement],
        indents: tuple[str, ...],
        last: ast.stmt,
    ) -> None:
        start = self.start(old[a], firsts[a], indents)
        if b < len(old):
            end = self.start(old[b], firsts[b], indents)
        else:  # the block's end: the last statement's line, or its own code, says where
            first = self.start(old[b - 1], firsts[b - 1], indents)
            end = self.line_end(old[b - 1], last)
            if end <= first:
                was = self.code(old[b - 1 : b], indents)
                end = first + len(was)
                if self.text[first:end] != was:
                    raise _Unsure
        made = self.rewrapped(old, firsts, a, b, new, indents, start, end)
        self.found.append((start, end, self.text[start:end], made or self.code(new, indents)))

    def rewrapped(
        self,
        old: Sequence[cst.BaseStatement],
        firsts: list[ast.stmt],
        a: int,
        b: int,
        new: Sequence[cst.BaseStatement],
        indents: tuple[str, ...],
        start: int,
        end: int,
    ) -> str | None:
        """The code of `new`, each a `return X` of old[a:b] made `return F(X)`, from the
        old text (`text[start:end]`); or, one statement added next to one left as it was,
        the old text and the added one's code; None unless all is so."""
        if b - a == 1 and len(new) == 2 and (new[0] is old[a]) != (new[1] is old[a]):
            first = new[0] is old[a]
            added = self.code([new[1] if first else new[0]], indents)
            kept = self.text[start:end]
            return kept + added if first else added + kept
        if len(new) != b - a:
            return None
        pieces: list[str] = []
        here = start
        for k, statement in enumerate(new):
            there = (
                end if a + k + 1 == b else self.start(old[a + k + 1], firsts[a + k + 1], indents)
            )
            piece = self.return_call(old[a + k], statement, firsts[a + k], here, there, indents)
            if piece is None:
                return None
            pieces.append(piece)
            here = there
        return "".join(pieces)

    def return_call(
        self,
        old: cst.BaseStatement,
        new: cst.BaseStatement,
        node: ast.stmt,
        start: int,
        end: int,
        indents: tuple[str, ...],
    ) -> str | None:
        """`return X` (the text `text[start:end]`) made `return F(X)`: the old text with
        `F(` and `)` around X, where `ast` puts X; checked, the text on either side of X is
        the code of what surrounds it, so X's own code is the text between. None when the
        change is another one, or the text is not so."""
        if not (
            type(old) is cst.SimpleStatementLine
            and type(new) is cst.SimpleStatementLine
            and len(old.body) == 1
            and len(new.body) == 1
            and type(node) is ast.Return
            and node.value is not None
            and _same_but(old, new, _BODY)
        ):
            return None
        was, now = old.body[0], new.body[0]
        if not (
            type(was) is cst.Return
            and type(now) is cst.Return
            and was.value is not None
            and _same_but(was, now, _VALUE)
            and _wraps(now.value, was.value)
        ):
            return None
        assert isinstance(now.value, cst.Call)
        value = node.value
        a = self.offset(value.lineno, value.col_offset)
        b = self.offset(value.end_lineno or 0, value.end_col_offset or 0)
        space = was.whitespace_after_return
        head = "".join(
            (
                self.code(old.leading_lines, indents),
                *indents,
                "return",
                " " if isinstance(space, cst.MaybeSentinel) else self.code([space], ()),
            )
        )
        semicolon = was.semicolon
        tail = self.code([semicolon] if isinstance(semicolon, cst.Semicolon) else [], ())
        tail += self.code([old.trailing_whitespace], ())
        if not (start <= a <= b <= end) or self.text[start:a] != head or self.text[b:end] != tail:
            return None
        call, arg = now.value, now.value.args[0]
        before = self.code([call.func, call.whitespace_after_func], indents)
        before += "(" + self.code([call.whitespace_before_args], indents) + arg.star
        before += self.code([arg.whitespace_after_star], indents)
        after = self.code([arg.whitespace_after_arg], indents) + ")"
        return f"{head}{before}{self.text[a:b]}{after}{tail}"

    def offset(self, line: int, column: int) -> int:
        """The offset of an `ast` position (its column counts UTF-8 bytes)."""
        start = self.starts[line]
        within = self.text[start : self.starts[line + 1]]
        if not within.isascii():
            column = len(within.encode()[:column].decode())
        return start + column

    def start(self, statement: cst.BaseStatement, node: ast.stmt, indents: tuple[str, ...]) -> int:
        """The offset of the first line `statement` owns (its leading lines first), checked:
        the leading lines' own code is the text above its first line, which begins with
        the block's indentation and then the statement (or its first decorator)."""
        line = _first_line(node)
        leading: Sequence[cst.EmptyLine] = getattr(statement, "leading_lines", ())
        above = line - len(leading)
        if above < 1:
            raise _Unsure
        start, first = self.starts[above], self.starts[line]
        indent = "".join(indents)
        column = first + len(indent)
        if self.text[first:column] != indent or self.text[start:first] != self.code(
            leading, indents
        ):
            raise _Unsure
        decorated = isinstance(statement, _NESTED) and statement.decorators
        if (self.text[column] != "@") if decorated else (node.col_offset != len(indent)):
            raise _Unsure
        return start

    def code(self, statements: Sequence[cst.CSTNode], indents: tuple[str, ...]) -> str:
        state = CodegenState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            indent_tokens=list(indents),
            tokens=[],
        )
        for statement in statements:
            statement._codegen(state)
        return "".join(state.tokens)


def _wraps(call: cst.BaseExpression | None, value: cst.BaseExpression) -> bool:
    """`call` is `F(value)`, this very `value`, with no keyword, comma or parentheses of
    its own: its code is F's, the spaces', `(`, value's code and `)`."""
    if type(call) is not cst.Call:
        return False
    assert isinstance(call, cst.Call)
    if call.lpar or call.rpar or len(call.args) != 1:
        return False
    arg = call.args[0]
    return (
        arg.value is value
        and arg.keyword is None
        and arg.equal is cst.MaybeSentinel.DEFAULT
        and arg.comma is cst.MaybeSentinel.DEFAULT
    )


def _indent(block: cst.IndentedBlock, module: cst.Module) -> str:
    return module.default_indent if block.indent is None else block.indent


def _firsts(statements: Sequence[cst.BaseStatement], nodes: list[ast.stmt]) -> list[ast.stmt]:
    """The first `ast` statement of each LibCST statement (`a; b` is one line, two nodes)."""
    firsts: list[ast.stmt] = []
    index = 0
    for statement in statements:
        firsts.append(nodes[index])
        index += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    if index != len(nodes):
        raise _Unsure
    return firsts


def _first_line(node: ast.stmt) -> int:
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return node.lineno


def _size(node: ast.stmt) -> int:
    return (node.end_lineno or node.lineno) - node.lineno
