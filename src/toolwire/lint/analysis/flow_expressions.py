"""The flow's expressions: each labelled bottom-up, and the checks that visit its type
run once it is."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import join_bound
from toolwire.lint.analysis.flow_base import FlowBase, attribute_key, container
from toolwire.lint.analysis.names import ClassInfo

# `<x>.content` is the wire field only where x may be a result (or a block of one): on a
# value of unknown origin it is just an attribute, and text made from it computes nothing
# from a result.
_OWNS_WIRE = L.RESULT | L.RESULTS | L.MAPPING | L.CONTENT


class Expressions(FlowBase):
    """`Flow`'s expressions, one method per kind (`_EXPRESSIONS`)."""

    def expr(self, node: ast.expr) -> int:
        labels = self._expr(node)
        self._labels[id(node)] = labels  # `ctx.remember`, inlined: once per expression
        visits = self.visitors.get(type(node))
        if visits:
            ctx = self.ctx
            for visit in visits:
                visit(node, ctx)
        return labels

    def _expr(self, node: ast.expr) -> int:
        if isinstance(node, ast.Name):
            return self.ctx.scope.env.get(node.id, L.OTHER)
        if isinstance(node, ast.Constant):
            return L.STR | L.OTHER if isinstance(node.value, str) else L.OTHER
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        label = _EXPRESSIONS.get(type(node))
        if label is not None:
            return label(self, node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        return L.OTHER

    def _inner(self, node: ast.Await | ast.Starred) -> int:
        return self.expr(node.value)

    def _joined(self, node: ast.JoinedStr) -> int:
        out = L.NOTHING
        for value in node.values:
            out |= self.expr(value)
        return L.STR | L.derived(out)

    def _formatted(self, node: ast.FormattedValue) -> int:
        out = self.expr(node.value)
        if node.format_spec is not None:
            self.expr(node.format_spec)
        return out

    def _binary(self, node: ast.BinOp) -> int:
        a, b = self.expr(node.left), self.expr(node.right)
        out = L.derived(a | b)
        if isinstance(node.op, ast.Mod | ast.Add) and (a | b) & L.STR:
            out |= L.STR
        return out

    def _boolean(self, node: ast.BoolOp) -> int:
        values = node.values
        out = self.expr(values[0])
        for value in values[1:]:
            out = L.join(out, self.expr(value))
        return out

    def _unary(self, node: ast.UnaryOp) -> int:
        self.expr(node.operand)
        return L.OTHER

    def _compare(self, node: ast.Compare) -> int:
        for part in [node.left, *node.comparators]:
            self.expr(part)
        return L.OTHER

    def _conditional(self, node: ast.IfExp) -> int:
        self.expr(node.test)
        return L.join(self.expr(node.body), self.expr(node.orelse))

    def _named(self, node: ast.NamedExpr) -> int:
        labels = self.expr(node.value)
        self.bind(node.target, labels, node.value)
        return labels

    def _display(self, node: ast.List | ast.Tuple | ast.Set) -> int:
        elts = node.elts
        out = L.NOTHING
        for element in elts:
            out |= self.expr(element)
        out = container(out, L.RESULTS) | self._element_shape(elts)
        if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in elts):
            out |= L.a_tuple([self.ctx.labels(e) for e in elts])
        return out

    def _dict(self, node: ast.Dict) -> int:
        out = L.NOTHING
        for key in node.keys:
            if key is not None:
                self.expr(key)
        for value in node.values:
            out |= self.expr(value)
        return container(out, L.MAPPING)

    def _subscript(self, node: ast.Subscript) -> int:
        owner = self.expr(node.value)
        index = node.slice
        self.expr(index)
        if owner & L.CONTENT and owner & L.STR and not owner & L.WHOLE:
            # `result.content[:n]`: cut at the call site, not bounded at the seam
            return L.STR | L.derived(owner)
        if isinstance(index, ast.Slice):
            return owner & (L.RESULTS | L.ARTIFACT) | L.shape_of(owner) or L.OTHER
        if (
            owner & L.TUPLE
            and isinstance(index, ast.Constant)
            and type(index.value) is int
            and 0 <= index.value < L.POSITIONS
        ):
            parts = L.tuple_parts(owner, index.value + 1)
            if parts is not None:
                return parts[-1]
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            for cls in self._owner_classes(None, owner):  # a TypedDict's key
                if index.value in cls.attributes:
                    return cls.attributes[index.value]
        out = L.element_of(owner)
        if owner & L.MAPPING:
            out = (out & ~L.OTHER) | L.RESULT
        return out

    def _slice(self, node: ast.Slice) -> int:
        for bound in (node.lower, node.upper, node.step):
            if bound is not None:
                self.expr(bound)
        return L.OTHER

    def _elements(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> int:
        out = self.comprehension(node.generators, [node.elt], L.RESULTS)
        return out | self._element_shape([node.elt])

    def _mapping(self, node: ast.DictComp) -> int:
        return self.comprehension(node.generators, [node.key, node.value], L.MAPPING, 1)

    def _lambda(self, node: ast.Lambda) -> int:
        self.function(node)
        return L.OTHER

    def _yield(self, node: ast.Yield) -> int:
        labels = self.expr(node.value) if node.value is not None else L.OTHER
        self._yields = join_bound(self._yields, labels)
        return L.OTHER

    def _yield_from(self, node: ast.YieldFrom) -> int:
        self._yields = join_bound(self._yields, L.element_of(self.expr(node.value)))
        return L.OTHER

    def comprehension(
        self,
        generators: list[ast.comprehension],
        parts: list[ast.expr],
        kind: int,
        values_from: int = 0,
    ) -> int:
        env = self.ctx.scope.env
        env.push()  # the comprehension's own names
        for generator in generators:
            labels = self.expr(generator.iter)
            self.bind_iteration(generator.target, labels, generator.iter)
            for condition in generator.ifs:
                self.expr(condition)
                self.prove_results(condition)
        out = L.NOTHING
        for index, part in enumerate(parts):
            labels = self.expr(part)
            if index >= values_from:
                out |= labels
        env.pop()
        return container(out, kind)

    def attribute(self, node: ast.Attribute) -> int:
        env = self.ctx.scope.env
        key = attribute_key(node)
        if key is not None and key in env:
            self.expr(node.value)
            return env.get(key)
        return self._member(self.expr(node.value), node.attr, node.value)

    def _member(self, owner: int, attr: str, value: ast.expr | None) -> int:
        """Labels of `<value>.attr`, also of `getattr(<value>, "attr")`."""
        index = self.facts.index
        if (
            attr in index.wire_fields
            and owner & _OWNS_WIRE
            and not owner & L.ARTIFACT
            and self.facts.is_barrier(owner, attr, wire=True)
        ):
            return L.CONTENT | L.STR
        if attr in index.barriers and self.facts.is_barrier(owner, attr):
            return L.OTHER
        if owner & L.RESULT and (attr in index.run_only or attr in index.serialiser_attributes):
            return L.ARTIFACT
        if owner & L.ARTIFACT:
            return L.ARTIFACT
        out = L.NOTHING
        for cls in self._owner_classes(value, owner):
            out |= cls.attributes.get(attr, L.NOTHING) | cls.assigned.get(attr, L.NOTHING)
        return out or self.facts.instance_return(owner, attr, attribute=True) or L.OTHER

    def _element_shape(self, elements: list[ast.expr]) -> int:
        """The element shape when every element is a tuple display of one arity."""
        if not elements:
            return L.NOTHING
        arity = -1
        for element in elements:
            if not isinstance(element, ast.Tuple) or any(
                isinstance(e, ast.Starred) for e in element.elts
            ):
                return L.NOTHING
            if arity not in (-1, len(element.elts)):
                return L.NOTHING
            arity = len(element.elts)
        parts = [L.NOTHING] * arity
        for element in elements:
            assert isinstance(element, ast.Tuple)
            for index, part in enumerate(element.elts):
                parts[index] |= self.ctx.labels(part) & L.BASE
        return L.of_tuples(parts)

    def _owner_classes(self, value: ast.expr | None, labels: int) -> list[ClassInfo]:
        """The classes of the module that `value` (labelled `labels`) is, or is an instance
        of: `self` in a method, a class named directly, an instance through its bit."""
        scope = self.ctx.scope
        if isinstance(value, ast.Name):
            if value.id == "self" and scope.cls is not None:
                return [scope.cls]
            named = self.facts.local_class(value)
            if named is not None and value.id not in scope.env:
                return [named]
        return self.facts.classes_of(labels)


# Expression type → how it is labelled (names, constants, attributes and calls are asked
# first); a type not listed has its parts labelled and is labelled OTHER.
_EXPRESSIONS: dict[type[ast.expr], Callable[[Expressions, Any], int]] = {
    ast.Await: Expressions._inner,
    ast.JoinedStr: Expressions._joined,
    ast.FormattedValue: Expressions._formatted,
    ast.BinOp: Expressions._binary,
    ast.BoolOp: Expressions._boolean,
    ast.UnaryOp: Expressions._unary,
    ast.Compare: Expressions._compare,
    ast.IfExp: Expressions._conditional,
    ast.NamedExpr: Expressions._named,
    ast.List: Expressions._display,
    ast.Tuple: Expressions._display,
    ast.Set: Expressions._display,
    ast.Dict: Expressions._dict,
    ast.Starred: Expressions._inner,
    ast.Subscript: Expressions._subscript,
    ast.Slice: Expressions._slice,
    ast.ListComp: Expressions._elements,
    ast.SetComp: Expressions._elements,
    ast.GeneratorExp: Expressions._elements,
    ast.DictComp: Expressions._mapping,
    ast.Lambda: Expressions._lambda,
    ast.Yield: Expressions._yield,
    ast.YieldFrom: Expressions._yield_from,
}
