"""Does a type hold a result (or an artifact)? Containers, unions, tuples, TypedDicts, ..."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from mypy.expandtype import expand_type_by_instance
from mypy.nodes import (
    AssignmentExpr,
    AwaitExpr,
    CallExpr,
    CastExpr,
    ComparisonExpr,
    ConditionalExpr,
    DictExpr,
    DictionaryComprehension,
    Expression,
    GeneratorExpr,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    OpExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.types import (
    AnyType,
    Instance,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypedDictType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

_MAX_DEPTH = 12  # recursive aliases and self-referencing dataclasses end here


def is_class(info: TypeInfo, classes: Collection[str]) -> bool:
    """`info` is one of `classes` or derives from one."""
    return any(base.fullname in classes for base in info.mro) or info.fullname in classes


def holds(
    typ: Type | None,
    classes: Collection[str],
    *,
    fields: bool = True,
    string_forms: bool = False,
) -> bool:
    """`typ` is, or contains, an instance of one of `classes`.

    Walks type arguments (list, dict, Sequence, Mapping, Iterable, generators ...), union
    items, tuple items, TypedDict values, TypeVar bounds and, with `fields`, the fields of
    dataclasses. With `string_forms`, a dataclass that writes its own `__str__` or
    `__repr__` decides its string form itself and its fields are not walked.
    """
    if typ is None or not classes:
        return False
    return _Walk(frozenset(classes), fields, string_forms).holds(typ, 0)


class _Walk:
    """One `holds` question. Each type is walked once: a type met again (a dataclass that
    refers to itself, directly or through others) adds nothing new, so the walk is linear
    in the number of distinct types reachable, not exponential in their fan-out."""

    def __init__(self, classes: frozenset[str], fields: bool, strings: bool) -> None:
        self.classes = classes
        self.fields = fields
        self.strings = strings
        self.seen: dict[ProperType, int] = {}  # type -> the least depth it was walked at

    def holds(self, typ: Type, depth: int) -> bool:
        if depth > _MAX_DEPTH:
            return False
        proper = get_proper_type(typ)
        # Walked already (or being walked higher up) with at least as much depth left: it
        # has no answer of its own to add. A shallower meeting walks it again, deeper.
        if self.seen.get(proper, _MAX_DEPTH + 1) <= depth:
            return False
        self.seen[proper] = depth
        deeper = depth + 1
        if isinstance(proper, Instance):
            info = proper.type
            if is_class(info, self.classes):
                return True
            if any(self.holds(arg, deeper) for arg in proper.args):
                return True
            if info.tuple_type is not None and self.holds(info.tuple_type, deeper):
                return True
            if self.fields and "dataclass" in info.metadata:
                return any(
                    self.holds(field, deeper) for field in _dataclass_fields(proper, self.strings)
                )
            return False
        if isinstance(proper, UnionType | TupleType):
            return any(self.holds(item, deeper) for item in proper.items)
        if isinstance(proper, TypedDictType):
            return any(self.holds(item, deeper) for item in proper.items.values())
        if isinstance(proper, TypeVarType):
            return self.holds(proper.upper_bound, deeper) or any(
                self.holds(value, deeper) for value in proper.values
            )
        return False


def _dataclass_fields(instance: Instance, strings: bool) -> Iterator[Type]:
    info = instance.type
    if strings and any(name in info.names for name in ("__str__", "__repr__")):
        return
    attributes = info.metadata["dataclass"].get("attributes", [])
    for attribute in attributes:
        name = attribute.get("name") if isinstance(attribute, dict) else None
        if not isinstance(name, str):
            continue
        symbol = info.get(name)
        if symbol is not None and isinstance(symbol.node, Var) and symbol.node.type is not None:
            yield expand_type_by_instance(symbol.node.type, instance)


def is_exactly(typ: Type | None, classes: Collection[str]) -> bool:
    """`typ` is an instance of `classes` (or an Optional of one, or a TypeVar bound to one).
    `T | Any` counts as `T`: what mypy makes of `x: T | None` bound to an untyped call."""
    if typ is None:
        return False
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        return is_class(proper.type, classes)
    if isinstance(proper, TypeVarType):
        return is_exactly(proper.upper_bound, classes)
    if isinstance(proper, UnionType):
        items = [get_proper_type(i) for i in proper.items]
        real = [i for i in items if not isinstance(i, NoneType | AnyType)]
        return bool(real) and all(is_exactly(i, classes) for i in real)
    return False


def unwrap_coroutine(typ: Type | None) -> ProperType | None:
    """`async def f() -> T` may be typed `Coroutine[Any, Any, T]`; give T."""
    proper = get_proper_type(typ) if typ is not None else None
    if (
        isinstance(proper, Instance)
        and proper.type.fullname == "typing.Coroutine"
        and len(proper.args) == 3
    ):
        return get_proper_type(proper.args[2])
    return proper


def displayed(expr: Expression) -> Iterator[Expression]:
    """`expr` and the items of displays and comprehensions inside it.

    mypy types `[r]` or `(x for x in rs)` from the call's context (`list[str]`), so the
    items' own types are the evidence.
    """
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ListExpr | TupleExpr | SetExpr):
            stack.extend(node.items)
        elif isinstance(node, DictExpr):
            stack.extend(k for k, _ in node.items if k is not None)
            stack.extend(v for _, v in node.items)
        elif isinstance(node, GeneratorExpr | ListComprehension | SetComprehension):
            inner = node if isinstance(node, GeneratorExpr) else node.generator
            stack.append(inner.left_expr)
        elif isinstance(node, DictionaryComprehension):
            stack.extend(e for e in (node.key, node.value) if e is not None)
        elif isinstance(node, ConditionalExpr):
            stack.extend((node.if_expr, node.else_expr))
        elif isinstance(node, StarExpr):
            stack.append(node.expr)


def children(node: Expression) -> list[Expression]:
    """Sub-expressions worth looking into for an artifact read (not lambda bodies)."""
    if isinstance(node, CallExpr):
        return [node.callee, *node.args]
    if isinstance(node, MemberExpr | StarExpr | UnaryExpr | AwaitExpr | CastExpr):
        return [node.expr]
    if isinstance(node, IndexExpr):
        return [node.base, node.index]
    if isinstance(node, OpExpr):
        return [node.left, node.right]
    if isinstance(node, ComparisonExpr):
        return list(node.operands)
    if isinstance(node, ListExpr | TupleExpr | SetExpr):
        return list(node.items)
    if isinstance(node, DictExpr):
        return [e for pair in node.items for e in pair if e is not None]
    if isinstance(node, ListComprehension | SetComprehension):
        node = node.generator
    if isinstance(node, GeneratorExpr | DictionaryComprehension):
        heads = [node.left_expr] if isinstance(node, GeneratorExpr) else [node.key, node.value]
        conds = [c for group in node.condlists for c in group]
        return [*heads, *node.sequences, *conds]
    if isinstance(node, ConditionalExpr):
        return [node.cond, node.if_expr, node.else_expr]
    if isinstance(node, AssignmentExpr):
        return [node.value]
    if isinstance(node, SliceExpr):
        return [e for e in (node.begin_index, node.end_index, node.stride) if e is not None]
    return []
