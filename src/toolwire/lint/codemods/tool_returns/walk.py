"""The cheap walk planning and rewriting share: statement-ish children only, by exact type.

LibCST's visitors rebuild every node they pass; walking only what can hold a statement
(never whitespace, punctuation or, unless asked, expressions) is what keeps a run fast.
"""

from __future__ import annotations

import dataclasses
import typing

import libcst as cst

# What can hold a statement. Walking only these (not expressions) is what keeps planning
# and rewriting cheap: LibCST's visitors rebuild every node they pass.
_STATEMENTISH = (
    cst.BaseSuite,
    cst.BaseStatement,
    cst.BaseSmallStatement,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)


_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


SCOPE_TYPES = frozenset(_SCOPES)  # parsed trees hold these exact types


# What no walk here looks into: whitespace, comments, brackets, commas, operators. Most
# of a tree's nodes are these; a field typed as only these is never entered.
_PUNCTUATION: tuple[type, ...] = (
    cst.BaseParenthesizableWhitespace,
    cst.TrailingWhitespace,
    cst.EmptyLine,
    cst.Newline,
    cst.Comment,
    cst.LeftParen,
    cst.RightParen,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.Semicolon,
    cst.Comma,
    cst.Colon,
    cst.Dot,
    cst.AssignEqual,
    cst.ImportStar,
    cst.BitOr,
    cst.BaseBinaryOp,
    cst.BaseBooleanOp,
    cst.BaseCompOp,
    cst.BaseUnaryOp,
    cst.BaseAugOp,
    cst.Asynchronous,
    cst.MaybeSentinel,
    str,
    bool,
    type(None),
)


_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}


def _punctuation_only(annotation: object) -> bool:
    """Every value the annotation admits is punctuation or a plain value (never a node
    that can hold an expression or a statement); unknown forms are not."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin is not None:  # Optional, Union, Sequence
        return all(_punctuation_only(a) for a in typing.get_args(annotation))
    return isinstance(annotation, type) and _derives(annotation, _PUNCTUATION)


def _derives(kind: type, bases: tuple[type, ...]) -> bool:
    """`issubclass(kind, bases)` by the MRO: LibCST registers no virtual subclasses, and
    abc's subclass check walks every subclass of each base it is not (0.2 s per run)."""
    return any(base in bases for base in kind.__mro__)


def field_names(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of `node` that can hold an expression or a statement."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(
            f.name for f in dataclasses.fields(kind) if not _punctuation_only(f.type)
        )
    return names


# Node type -> what a walk does with it: _SKIP, _EXPRESSIONISH (entered by full walks) or
# _STATEMENT (entered by every walk). Looked up by exact type: an isinstance check against
# LibCST's abstract classes costs more than the rest of the walk.
_SKIP, _EXPRESSIONISH, STATEMENT = 0, 1, 2


_KINDS: dict[type, int] = {}


def node_kind(kind: type) -> int:
    found = _KINDS.get(kind)
    if found is None:
        if not _derives(kind, (cst.CSTNode,)) or _derives(kind, _PUNCTUATION):
            found = _SKIP
        else:
            found = STATEMENT if _derives(kind, _STATEMENTISH) else _EXPRESSIONISH
        _KINDS[kind] = found
    return found


def children(node: cst.CSTNode, statements: bool = False) -> list[cst.CSTNode]:
    """The children of `node` a walk enters; with `statements`, only the statement-ish."""
    least = STATEMENT if statements else _EXPRESSIONISH
    kinds = _KINDS
    found: list[cst.CSTNode] = []
    for name in field_names(node):
        value = getattr(node, name)
        if isinstance(value, tuple | list):
            for item in value:
                kind = kinds.get(type(item))
                if (node_kind(type(item)) if kind is None else kind) >= least:
                    found.append(item)
        else:
            kind = kinds.get(type(value))
            if (node_kind(type(value)) if kind is None else kind) >= least:
                found.append(value)
    return found
