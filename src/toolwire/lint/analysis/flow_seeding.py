"""The flow's run-only seeding: the names whose values a function puts in a run-only slot
(the artifact of a content-and-artifact pair, a `run-only-arguments` argument) are
artifacts when bound, so the same data sent on the wire too is found."""

from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.flow_base import OPAQUE, SCALARS, FlowBase
from toolwire.lint.analysis.names import ClassInfo
from toolwire.lint.analysis.sinks import call_sink_payloads

# Calls that make a number of their arguments: a count, not a record.
_NUMBERS = frozenset(
    f"builtins.{n}" for n in ("int", "float", "complex", "round", "abs", "sum", "divmod")
)


class Seeding(FlowBase):
    """`Flow`'s run-only slots: the names a function seeds as artifacts."""

    def _seeds(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
    ) -> frozenset[str]:
        """The names whose values `node` puts in a run-only slot: the second item of the
        pair a content-and-artifact tool returns, a `run-only-arguments` argument
        (`ToolReturn(metadata=rows)`). Bound, they are artifacts (`_seed`), so the same
        data serialised into the wire slot too is TW302, and so are the names a slot's name
        is built around (`part = Part.from_bytes(data=raw)`: `raw`). One walk of the
        function's own body (nested functions get theirs), only where a slot can be."""
        key = id(node)
        found = self._seeded.get(key)
        if found is not None:
            return found
        facts = self.facts
        table = facts.run_only_arguments
        words = facts.run_only_words
        if table and not self._mentions(node, words):
            table = {}
        pairs = facts.pairs_tool(node, cls)
        names: set[str] = set()
        built: dict[str, list[ast.expr]] = {}  # `part = Part.from_bytes(data=raw)`
        if table or pairs:
            stack: list[ast.AST] = list(node.body)
            while stack:
                sub = stack.pop()
                slots: list[ast.expr] = []
                if isinstance(sub, ast.Assign) and isinstance(sub.targets[0], ast.Name):
                    built.setdefault(sub.targets[0].id, []).append(sub.value)
                if pairs and isinstance(sub, ast.Return) and isinstance(sub.value, ast.Tuple):
                    items = sub.value.elts
                    if len(items) > 1 and facts.returns_to_wire(node, cls, sub.value) is items[0]:
                        slots = items[1:]
                elif table and isinstance(sub, ast.Call) and _last_name(sub.func) in words:
                    self._receiver(sub.func)
                    slots = [p for _, p in call_sink_payloads(sub, self.ctx, table)]
                for slot in slots:
                    names |= _free_names(slot)
                for child in ast.iter_child_nodes(sub):
                    if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        continue
                    if table or isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                        stack.append(child)
        # one step back: what a name in a slot was built around is in the slot too
        for name in list(names):
            for value in built.get(name, ()):
                names |= _free_names(value)
        found = self._seeded[key] = frozenset(names)
        return found

    def _receiver(self, func: ast.expr) -> None:
        """`tool_context.save_artifact(name, part)`, a method's run-only argument: before
        the body runs, the receiver is known only as a parameter, by its annotation."""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            env = self.ctx.scope.env
            if func.value.id in env:
                self.ctx.remember(func.value, env.get(func.value.id))

    def _mentions(self, node: ast.AST, words: frozenset[str]) -> bool:
        """Does the source text of `node` name one of `words`? Cheaper than its tree."""
        lines = self.ctx.lines
        start, end = getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or len(lines)
        text = "\n".join(lines[start - 1 : end])
        return any(word in text for word in words)

    def _seed(self, labels: int, value: ast.expr | None) -> int:
        """A binding of a name the function puts in a run-only slot: an artifact, unless
        the value is text or says nothing of any record (a literal, `len(rows)`)."""
        if labels & L.STR or isinstance(value, ast.Constant | ast.Lambda | ast.Compare):
            return labels
        if isinstance(value, ast.Call):
            dotted = self.ctx.qualify(value.func)
            if dotted in OPAQUE or dotted in _NUMBERS or self._returns_scalar(value.func):
                return labels
        return labels | L.ARTIFACT

    def _returns_scalar(self, func: ast.expr) -> bool:
        """`count(region)` of a function of the module annotated `-> int` (a number, a
        str): its value is not taken from any record, so putting it in the artifact as well
        as the content (`return f"{n} customers", {"count": n}`) makes it no artifact."""
        if not isinstance(func, ast.Name):
            return False
        definition = self._defs.get(func.id)
        returns = getattr(definition, "returns", None)
        return returns is not None and self.ctx.qualify(returns) in SCALARS


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _free_names(expr: ast.expr) -> set[str]:
    """The names whose whole values `expr` holds: not a name whose attribute it reads
    (`found.raw` holds part of `found`) or that it calls, nor one its comprehensions and
    lambdas bind."""
    read: set[str] = set()
    bound: set[str] = set()
    for sub in ast.walk(expr):
        if isinstance(sub, ast.Name):
            (read if isinstance(sub.ctx, ast.Load) else bound).add(sub.id)
        elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            bound.add(sub.value.id)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
            bound.add(sub.func.id)
        elif isinstance(sub, ast.Lambda):
            bound.update(a.arg for a in ast.walk(sub.args) if isinstance(a, ast.arg))
    return read - bound
