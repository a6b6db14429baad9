"""The units of a plan (a tool class, a tool method) and the module structure they come
from: its blocks, classes, functions, and each class's same-module lineage."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from toolwire.lint.model import ClassShape, FunctionShape


@dataclass(slots=True)
class ToolMethod:
    node: cst.FunctionDef
    cls: ToolClass | None  # None: a function tool
    status: str = "migrate"  # migrate | already | skip
    reason: str = ""
    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)
    shape: ClassShape | FunctionShape | None = None  # the framework shape that found it
    decorator: int = -1  # a function tool: the index of the framework's decorator
    pending: bool = False  # skipped until another file of the run says what it returns

    @property
    def owner(self) -> str:
        return self.cls.qualname if self.cls is not None else ""


@dataclass(slots=True)
class ToolClass:
    node: cst.ClassDef
    qualname: str
    top_level: bool
    methods: dict[str, ToolMethod] = field(default_factory=dict)


def base_exprs(node: cst.ClassDef) -> Iterator[cst.BaseExpression]:
    for arg in node.bases:
        if arg.keyword is None and arg.star == "":
            value = arg.value
            yield value.value if isinstance(value, cst.Subscript) else value


def is_self(receiver: cst.BaseExpression, entry: ToolMethod) -> bool:
    params = entry.node.params
    positional = [*params.posonly_params, *params.params]
    return (
        bool(positional)
        and isinstance(receiver, cst.Name)
        and receiver.value == positional[0].name.value
    )


def is_super(receiver: cst.BaseExpression) -> bool:
    return (
        isinstance(receiver, cst.Call)
        and isinstance(receiver.func, cst.Name)
        and receiver.func.value == "super"
    )


def lineage_of(
    cls: ToolClass, local: dict[str, ToolClass], skip_own: bool
) -> tuple[list[ToolClass], bool]:
    """`cls` and its same-module ancestors, breadth first; False if some live elsewhere."""
    seen: set[str] = set()
    order: list[ToolClass] = []
    complete = True
    queue = [cls]
    while queue:
        current = queue.pop(0)
        if current.qualname in seen:
            continue
        seen.add(current.qualname)
        order.append(current)
        for base in base_exprs(current.node):
            if isinstance(base, cst.Name) and base.value in local:
                queue.append(local[base.value])
            elif not (isinstance(base, cst.Name) and base.value == "object"):
                complete = False
    return (order[1:] if skip_own else order), complete


def block_of(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else ()


def blocks_of(node: cst.CSTNode) -> Iterator[Sequence[cst.BaseStatement]]:
    """The statement blocks directly inside a compound statement, in source order."""
    if isinstance(node, cst.If):
        yield block_of(node.body)
        orelse = node.orelse
        if isinstance(orelse, cst.If):
            yield from blocks_of(orelse)
        elif orelse is not None:
            yield block_of(orelse.body)
        return
    if isinstance(node, cst.Try | cst.TryStar):
        yield block_of(node.body)
        for handler in node.handlers:
            yield block_of(handler.body)
        if node.orelse is not None:
            yield block_of(node.orelse.body)
        if node.finalbody is not None:
            yield block_of(node.finalbody.body)
        return
    if isinstance(node, cst.Match):
        for case in node.cases:
            yield block_of(case.body)
        return
    body = getattr(node, "body", None)
    if isinstance(body, cst.BaseSuite):
        yield block_of(body)
    orelse = getattr(node, "orelse", None)
    if isinstance(orelse, cst.Else):
        yield block_of(orelse.body)


# isinstance of BaseCompoundStatement by node type: LibCST's classes are ABCs, and these
# walks test every statement of the module
_COMPOUND: dict[type, bool] = {}


def is_compound(node: cst.CSTNode) -> bool:
    kind = type(node)
    found = _COMPOUND.get(kind)
    if found is None:
        found = _COMPOUND[kind] = isinstance(node, cst.BaseCompoundStatement)
    return found


def statements_in(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    for statement in body:
        yield statement
        if is_compound(statement):
            for block in blocks_of(statement):
                yield from statements_in(block)


def functions_in(body: Sequence[cst.BaseStatement]) -> Iterator[cst.FunctionDef]:
    for statement in statements_in(body):
        if type(statement) is cst.FunctionDef:
            yield statement


def classes_in(
    body: Sequence[cst.BaseStatement], prefix: str, top: bool = True
) -> Iterator[ToolClass]:
    for statement in body:
        kind = type(statement)
        if kind is cst.ClassDef:
            assert isinstance(statement, cst.ClassDef)
            qualname = f"{prefix}{statement.name.value}"
            yield ToolClass(statement, qualname, top)
            if isinstance(statement.body, cst.IndentedBlock):
                yield from classes_in(statement.body.body, f"{qualname}.", False)
        elif kind is cst.FunctionDef:
            assert isinstance(statement, cst.FunctionDef)
            if isinstance(statement.body, cst.IndentedBlock):
                yield from classes_in(
                    statement.body.body, f"{prefix}{statement.name.value}.<locals>.", False
                )
        elif is_compound(statement):
            for block in blocks_of(statement):
                yield from classes_in(block, prefix, top)


def is_subscripted(receiver: cst.BaseExpression) -> bool:
    """`tools[name]`, `self.tools[name]`: a tool picked out of a collection."""
    while isinstance(receiver, cst.Attribute | cst.Call):
        if isinstance(receiver, cst.Call):
            receiver = receiver.func
        else:
            receiver = receiver.value
        if isinstance(receiver, cst.Subscript):
            return True
    return isinstance(receiver, cst.Subscript)


def descendants(cls: ToolClass, local: dict[str, ToolClass]) -> list[ToolClass]:
    found: list[ToolClass] = []
    for other in local.values():
        if other is cls:
            continue
        ancestors, _ = lineage_of(other, local, skip_own=True)
        if any(a is cls for a in ancestors):
            found.append(other)
    return found


def ancestors_in(cls: ToolClass, classes: list[ToolClass]) -> list[ToolClass]:
    local = {c.node.name.value: c for c in classes if c.top_level}
    ancestors, _ = lineage_of(cls, local, skip_own=True)
    return ancestors


def dotted_name(module: str | None, qualname: str) -> str:
    return f"{module}.{qualname}" if module else qualname
