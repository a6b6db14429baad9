"""Applies a module's plan: wraps the returns, swaps the annotations, puts the adapters
in place (a base, a decorator, a factory), rebuilding only the nodes on the way down."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

import libcst as cst

from toolwire.lint.codemods.imports import (
    ResultRef,
    attribute_chain,
    insert_imports,
    is_docstring,
)
from toolwire.lint.codemods.tool_returns.structure import ToolMethod
from toolwire.lint.codemods.tool_returns.walk import STATEMENT, children, field_names, node_kind
from toolwire.lint.model import ClassShape, FunctionShape

_N = TypeVar("_N", bound=cst.CSTNode)


@dataclass(frozen=True, slots=True)
class Edits:
    """What the plan of one module changes: all the rewrite needs to know."""

    result_class: str  # dotted
    ref: str  # how the module spells the result class
    targets: Mapping[cst.FunctionDef, ToolMethod]  # the methods to migrate
    path: set[int]  # ids of the statements and blocks above a target
    wrap: Mapping[cst.Return, bool]  # returns to wrap: True in an except handler (an error)
    kinds: Mapping[int, str]  # id of a returned value -> `result`, `plain` or `mixed`
    adapters: Mapping[str, ResultRef]  # adapter dotted name -> how to spell it
    bases: Mapping[cst.ClassDef, tuple[int, ClassShape]]  # where the adapter base goes
    local_import: set[cst.FunctionDef]  # import the result class inside these


class Rewriter:
    """Applies the edits, rebuilding only the nodes on the way down to what changes."""

    def __init__(self, edits: Edits) -> None:
        self.edits = edits
        self.annotation = attribute_chain(edits.ref)

    def rewrite(self, node: _N, inside: bool = False) -> _N:
        edits = self.edits
        if not inside and id(node) not in edits.path:
            return node
        inside = inside or (isinstance(node, cst.FunctionDef) and node in edits.targets)
        path = edits.path
        changes: dict[str, object] = {}
        for name in field_names(node):
            value = getattr(node, name)
            if isinstance(value, tuple | list):
                if value:
                    # off the path (outside a target) an item stays: no call to say so
                    items = [
                        self.rewrite(v, inside)
                        if (inside or id(v) in path) and node_kind(type(v)) == STATEMENT
                        else v
                        for v in value
                    ]
                    if any(a is not b for a, b in zip(items, value, strict=True)):
                        changes[name] = items
            elif node_kind(type(value)) == STATEMENT:
                new = self.rewrite(value, inside)
                if new is not value:
                    changes[name] = new
        updated = node.with_changes(**changes) if changes else node
        if isinstance(node, cst.Return) and isinstance(updated, cst.Return):
            return cast(_N, self.leave_return(node, updated))
        if isinstance(node, cst.FunctionDef) and node in edits.targets:
            assert isinstance(updated, cst.FunctionDef) and updated.returns is not None
            returns = updated.returns.with_changes(annotation=self.annotation)
            function: cst.FunctionDef = cst.ensure_type(updated, cst.FunctionDef).with_changes(
                returns=returns
            )
            entry = edits.targets[node]
            if isinstance(entry.shape, FunctionShape) and entry.decorator >= 0:
                function = self.decorate(function, entry.shape, entry.decorator)
            elif isinstance(entry.shape, FunctionShape) and entry.shape.wire == "under":
                # Handed to a method (`mcp.add_tool(f)`): the call stays, the adapter goes
                # right above the `def`, under every decorator (each was judged to pass).
                function = self.decorate(function, entry.shape, len(function.decorators) - 1)
            if node in edits.local_import:
                function = self.import_inside(function)
            return cast(_N, function)
        if isinstance(node, cst.ClassDef) and node in edits.bases:
            assert isinstance(updated, cst.ClassDef)
            index, shape = edits.bases[node]
            adapter = attribute_chain(edits.adapters[shape.adapter].expression)
            bases = list(updated.bases)
            if index < 0:
                bases.insert(0, cst.Arg(adapter))
            else:
                bases[index] = bases[index].with_changes(value=adapter)
            return cast(_N, updated.with_changes(bases=bases))
        return updated

    def decorate(self, node: cst.FunctionDef, shape: FunctionShape, index: int) -> cst.FunctionDef:
        """Wire a function tool to its adapter, as the preset says."""
        adapter = attribute_chain(self.edits.adapters[shape.adapter].expression)
        decorators = list(node.decorators)
        if shape.wire == "replace":
            found = decorators[index]
            value = found.decorator
            new = value.with_changes(func=adapter) if isinstance(value, cst.Call) else adapter
            decorators[index] = found.with_changes(decorator=new)
        else:
            decorators.insert(index + 1, cst.Decorator(adapter))
        return node.with_changes(decorators=decorators)

    def import_inside(self, node: cst.FunctionDef) -> cst.FunctionDef:
        """`from toolwire import ToolResult` as the body's first statement (smolagents)."""
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            return node
        module, _, name = self.edits.result_class.rpartition(".")
        ref = self.edits.ref
        if "." in ref:
            return node  # spelled through a module alias: that import is the module's own
        add = (module, name if ref == name else f"{name} as {ref}")
        statements = [
            s
            for s in body.body
            if isinstance(s, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        ]
        if len(statements) != len(body.body):
            return node
        inner = list(insert_imports(cst.Module(body=statements), [add], None, indented=True).body)
        # Right under a function's docstring, an import takes no blank line (a module's does).
        added = inner[1] if len(inner) > 1 and is_docstring(inner[0]) else None
        if isinstance(added, cst.SimpleStatementLine) and added not in statements:
            inner[1] = added.with_changes(leading_lines=[])
        return node.with_changes(body=body.with_changes(body=inner))

    def leave_return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        in_except = self.edits.wrap.get(original_node)
        if in_except is None or updated_node.value is None:
            return updated_node
        factory = "error" if in_except else "text"
        changes: dict[str, object] = {
            "value": self.wrapped(original_node.value, updated_node.value, factory)
        }
        space = updated_node.whitespace_after_return
        if isinstance(space, cst.SimpleWhitespace) and not space.value:
            changes["whitespace_after_return"] = cst.SimpleWhitespace(" ")  # `return(x)`
        return updated_node.with_changes(**changes)

    def wrapped(
        self, original: cst.BaseExpression | None, value: cst.BaseExpression, factory: str
    ) -> cst.BaseExpression:
        kind = self.edits.kinds.get(id(original))
        if kind == "result":
            return value
        if kind == "mixed" and isinstance(value, cst.IfExp) and isinstance(original, cst.IfExp):
            # Wrap only the branches that are not results already.
            return value.with_changes(
                body=self.wrapped(original.body, value.body, factory),
                orelse=self.wrapped(original.orelse, value.orelse, factory),
            )
        return wrapped_call(self.edits.ref, factory, value)


def wrapped_call(ref: str, factory: str, value: cst.BaseExpression) -> cst.Call:
    """`ref.factory(value)`, whose one argument is exactly `value`.

    The outer parentheses of `return (x)` become the call's (comments and all), except
    when they are what makes `value` one tuple: `return (a, b)` keeps them, so it becomes
    `text((a, b))`, never `text(a, b)`.
    """
    func = attribute_chain(f"{ref}.{factory}")
    if isinstance(value, cst.Tuple) and len(value.lpar) < 2:
        if value.lpar:
            return cst.Call(func, [cst.Arg(value)])
        return cst.Call(
            func, [cst.Arg(value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))]
        )
    if value.lpar and value.rpar:
        # `return (\n  x  # why\n)`: the outer parentheses become the call's, comments and all.
        lpar, rpar = value.lpar[0], value.rpar[-1]
        inner = value.with_changes(lpar=value.lpar[1:], rpar=value.rpar[:-1])
        return cst.Call(
            func,
            [cst.Arg(inner, whitespace_after_arg=rpar.whitespace_before)],
            whitespace_before_args=lpar.whitespace_after,
        )
    return cst.Call(func, [cst.Arg(value)])


def mark_path(node: cst.CSTNode, targets: Mapping[cst.FunctionDef, object], path: set[int]) -> bool:
    """Add the ids of `node` and of everything between it and a target; True if it holds one."""
    if isinstance(node, cst.FunctionDef) and node in targets:
        path.add(id(node))
        return True
    if isinstance(node, cst.SimpleStatementLine | cst.BaseSmallStatement):
        return False
    found = False
    for child in children(node, statements=True):
        found = mark_path(child, targets, path) or found
    if found:
        path.add(id(node))
    return found


class SwapCalls(cst.CSTTransformer):
    """Put the adapter in place of the framework's factory class, at the planned calls."""

    def __init__(self, swaps: Mapping[cst.Call, cst.Attribute]) -> None:
        super().__init__()
        self.swaps = swaps

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = self.swaps.get(original_node)
        return updated_node if func is None else updated_node.with_changes(func=func)
