"""Intraprocedural value flow, in the manner of Semgrep's taint mode.

Statements are interpreted in source order with an environment from names to labels;
branches are joined, and a loop body is re-run only while the environment at its head
still grows (a fixpoint over bit flags, so it ends). Each expression is labelled
bottom-up, and after a node is labelled the checks that visit its type run with the labels
of its parts at hand. Nested functions see the enclosing environment at their definition;
every function starts from its annotated parameters.

The work is linear in the size of the module: a branch or a loop pass records what it
overwrites (an undo frame) so it costs what it writes, never a copy of the environment; a
loop remembers its fixpoint, so a loop nested d deep is not re-run 2^d times but starts
from what its last visit found and settles in one pass.

`Flow` is made of one base class per topic, each in its own module: `flow_statements`,
`flow_expressions`, `flow_calls` (calls and function summaries), `flow_exports` (across
the modules of a run) and `flow_seeding` (run-only slots); `flow_base` holds the state
they share. Here: the scopes (the module, a function, a class body).
"""

from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import UNBOUND, Env, Scope
from toolwire.lint.analysis.flow_base import DECLARED, container
from toolwire.lint.analysis.flow_calls import Calls
from toolwire.lint.analysis.flow_exports import Exporting
from toolwire.lint.analysis.flow_expressions import Expressions
from toolwire.lint.analysis.flow_seeding import Seeding
from toolwire.lint.analysis.flow_statements import Statements


class Flow(Statements, Expressions, Calls, Exporting, Seeding):
    """The value flow of one module, one topic per base class: statements, expressions,
    calls and summaries, exports, run-only seeding; here, the scopes."""

    def module(self, tree: ast.Module, skip: frozenset[int] | None = None) -> None:
        """Interpret a module; the top-level definitions in `skip` (by id) are known to
        hold nothing a check can report, and are only recorded as definitions."""
        self.prepare(tree, skip)
        env = self._module.env
        # Functions run after the module has been imported: they see its names as the
        # module-level code leaves them, so definitions are interpreted after it.
        definitions = []
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                env.delete(statement.name)
                if skip is None or id(statement) not in skip:
                    definitions.append(statement)
            else:
                self.statement(statement)
        for statement in definitions:
            self.statement(statement)

    def module_bindings(self, tree: ast.Module) -> None:
        """Interpret only a module's top-level statements other than definitions (its
        globals, such as `log = logging.getLogger(...)`), so that summaries of its
        functions for the modules that import them see what those names hold."""
        self.prepare(tree)
        env = self._module.env
        for statement in tree.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                env.delete(statement.name)
            else:
                self.statement(statement)

    def prepare(self, tree: ast.Module, skip: frozenset[int] | None = None) -> None:
        """Know the module's functions, so that their summaries can be computed."""
        self._skip = skip
        self.ctx.scope = self._module = Scope(tree, self.facts.module or "")
        names = self.facts.names
        self._defs = {
            node.name: node
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name not in names.assigned
            and node.name not in names.aliases
        }
        self._top = list(self._defs)

    def function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        given: dict[str, int] | None = None,
    ) -> int:
        """Interpret a function's body; its parameters are as annotated, or as `given`.
        Returns the labels of what a call of it returns."""
        outer = self.ctx.scope
        env = Env(outer.env)
        cls = outer.cls if isinstance(outer.node, ast.ClassDef) else None
        name = getattr(node, "name", "<lambda>")
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        declared: dict[str, int] = {}
        for arg in [*positional, *args.kwonlyargs]:
            annotated = self.facts.annotation(arg.annotation)
            env.set(arg.arg, annotated or L.OTHER)
            if annotated & DECLARED:
                declared[arg.arg] = annotated & (DECLARED | L.MAYBE_NONE)
            returned = self.facts.callable_returns(arg.annotation)
            if returned:
                env.bind_callee(arg.arg, returned)
        for rest in (args.vararg, args.kwarg):
            if rest is not None:
                env.set(rest.arg, L.OTHER)
        is_static = any(
            isinstance(d, ast.Name) and d.id == "staticmethod"
            for d in getattr(node, "decorator_list", [])
        )
        if cls is not None and positional and not is_static:
            env.set(positional[0].arg, L.TOOL if cls.is_tool else L.OTHER)
        for param, labels in (given or {}).items():
            env.set(param, labels)
        self.ctx.scope = Scope(node, f"{outer.qualname}.{name}".lstrip("."), cls, env)
        if declared:
            self.ctx.scope.declared = declared
        if not isinstance(node, ast.Lambda):
            self.ctx.scope.seeds = self._seeds(node, cls)
        saved = self._returns, self._yields, self._guarded
        self._returns = self._yields = UNBOUND
        self._guarded = 0  # the body runs later, outside the try that defines it
        try:
            if isinstance(node, ast.Lambda):
                return self.expr(node.body)
            self.block(node.body)
            if self._yields != UNBOUND:  # a generator: what it yields, in a container
                return container(self._yields, L.RESULTS)
            return L.OTHER if self._returns == UNBOUND else self._returns
        finally:
            self.ctx.scope = outer
            self._returns, self._yields, self._guarded = saved

    def klass(self, node: ast.ClassDef) -> None:
        outer = self.ctx.scope
        info = self.facts.classes.get(node.name)
        self.ctx.scope = Scope(
            node, f"{outer.qualname}.{node.name}".lstrip("."), info, Env(outer.env)
        )
        try:
            self.block(node.body)
            while info is not None and info.assigned:
                # A method that read `self.x` before another assigned it a result: again.
                before = dict(info.assigned)
                self.block(node.body)
                if info.assigned == before:
                    break
        finally:
            self.ctx.scope = outer
