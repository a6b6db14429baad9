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
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

import toolwire.analysis.labels as L
from toolwire.analysis.context import (
    UNBOUND,
    Callee,
    Context,
    Definition,
    Env,
    Scope,
    Visitors,
    join_bound,
)
from toolwire.analysis.facts import ClassInfo
from toolwire.analysis.modules import KINDS, Effect, Exports, FunctionExport
from toolwire.analysis.sinks import call_sink_payloads
from toolwire.analysis.units import relevant
from toolwire.findings import Finding

# Calls whose result says nothing about their arguments' contents.
_OPAQUE = frozenset(
    f"builtins.{n}" for n in ("len", "bool", "isinstance", "issubclass", "type", "id", "hash")
)
_COLLECTORS = frozenset(
    f"builtins.{n}" for n in ("list", "tuple", "set", "frozenset", "sorted", "reversed", "iter")
)
# Summaries nest one interpretation per call level: past this depth a call is treated as
# an unknown function, so a long generated chain never runs out of stack.
_SUMMARY_DEPTH = 40
_AWAITERS = frozenset({"asyncio.run"})  # runs a coroutine: like `await`
_PARTIALS = frozenset({"functools.partial"})
# Calls that run their argument `fn(*rest)` (in a thread): `(dotted name or method, where
# fn is)`; awaiting them gives what the call of fn returns.
_RUNNERS = {"asyncio.to_thread": 0}
_RUNNER_METHODS = {"run_in_executor": 1}
_PICKERS = frozenset(f"builtins.{n}" for n in ("next", "min", "max"))
_ADDERS = frozenset({"append", "add", "insert", "extend"})
_MAPPING_PICKERS = frozenset({"get", "pop", "setdefault"})
_MAPPING_VIEWS = frozenset({"values", "copy"})
_SEQUENCE_PICKERS = frozenset({"pop"})
_STR_METHODS = frozenset(
    {"format", "format_map", "join", "strip", "lstrip", "rstrip", "upper", "lower", "replace"}
)


# `isinstance(x, T)` with one of these proves x is not a single result: no result type
# is (or derives from) a builtin container, a number or a string.
_NOT_RESULTS = frozenset(
    [
        *(
            f"builtins.{n}"
            for n in (
                "str",
                "bytes",
                "bytearray",
                "int",
                "float",
                "complex",
                "bool",
                "dict",
                "list",
                "tuple",
                "set",
                "frozenset",
            )
        ),
        *(
            f"{m}.{n}"
            for m in ("collections.abc", "typing")
            for n in ("Sequence", "MutableSequence", "Mapping", "MutableMapping")
        ),
    ]
)

# Of those, the ones that hold nothing at all: a str, a number. A value proved to be one
# (`isinstance(x, str)`, `case str() as x`) holds no result, whatever its union said; what
# it was computed from (`.content`, a string made from a result, an artifact) stays.
_SCALARS = frozenset(
    f"builtins.{n}" for n in ("str", "bytes", "bytearray", "int", "float", "complex", "bool")
)
# Calls that make a number of their arguments: a count, not a record.
_NUMBERS = frozenset(
    f"builtins.{n}" for n in ("int", "float", "complex", "round", "abs", "sum", "divmod")
)
_SCALAR_KEEPS = L.ARTIFACT | L.CONTENT | L.DERIVED | L.STR | L.MAYBE_NONE | L.OTHER
_CONTAINER_DROPS = L.RESULT | L.SAFE_STR

_UNKNOWN = L.OTHER | L.MAYBE_NONE  # labels that say nothing of where a value is from
# What an annotation keeps through a later binding of unknown origin: that the name holds
# a result (or an artifact). A receiver's type (a sink's class, a tool, a logger) is not
# kept: a name bound again to anything else loses it (docs/model.md).
_DECLARED = L.WHOLE | L.ARTIFACT | L.SAFE_STR
# Statements with nothing to interpret: only the checks look at them.
_INERT = frozenset(
    {ast.Import, ast.ImportFrom, ast.Pass, ast.Global, ast.Nonlocal, ast.Break, ast.Continue}
)


class Flow:
    def __init__(
        self,
        ctx: Context,
        visitors: Visitors,
        imported: dict[str, FunctionExport] | None = None,
    ) -> None:
        self.ctx = ctx
        self._labels = ctx._labels
        self.imported = imported or {}  # functions of other modules of the run, by dotted name
        self.facts = ctx.facts
        self.visitors = visitors
        self.work = 0  # statements visited, names joined, calls expanded: linear in the module
        # loop → (its head at the fixpoint, the keys it reads, their values then)
        self._heads: dict[int, tuple[dict[str, int], tuple[str, ...] | None, tuple[int, ...]]] = {}
        self._looping = 0
        self._module = Scope(ast.Module(body=[], type_ignores=[]), "")
        self._defs: dict[str, Definition] = {}
        self._top: list[str] = []  # the module's own top-level functions
        # a message reported from another module's summary → where it happens
        self._origins: dict[str, tuple[str, int, str, str]] = {}
        self._closures: dict[str, Scope] = {}  # summary key → scope, for local callables
        self._expanding = 0  # partials expanded inside one another
        self._partials: set[int] = set()  # the partials being expanded, by id
        self._returns = self._yields = UNBOUND
        # Function summaries: what a module-level function returns as the main pass saw it,
        # and per (function, argument labels) what it returns and the findings the
        # arguments cause inside it. None while one is being computed (recursion).
        self._returned: dict[str, int] = {}
        self._relevant: dict[str, bool] = {}
        self._owners: dict[str, ClassInfo] = {}  # summary key → class, for methods
        self._nesting = 0
        self._skip: frozenset[int] | None = None
        self._summaries: dict[tuple[str, tuple[tuple[str, int], ...]], Summary | None] = {}
        self._seeded: dict[int, frozenset[str]] = {}  # function → its `_seeds`

    # -- scopes -----------------------------------------------------------------------------

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

    def _dispatch(self, node: ast.AST) -> None:
        for visit in self.visitors.get(type(node), ()):
            visit(node, self.ctx)

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
            if annotated & _DECLARED:
                declared[arg.arg] = annotated & (_DECLARED | L.MAYBE_NONE)
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
        saved = self._returns, self._yields
        self._returns = self._yields = UNBOUND
        try:
            if isinstance(node, ast.Lambda):
                return self.expr(node.body)
            self.block(node.body)
            if self._yields != UNBOUND:  # a generator: what it yields, in a container
                return _container(self._yields, L.RESULTS)
            return L.OTHER if self._returns == UNBOUND else self._returns
        finally:
            self.ctx.scope = outer
            self._returns, self._yields = saved

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

    # -- statements -------------------------------------------------------------------------

    def block(self, body: Iterable[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        self.work += 1
        if type(node) in _INERT:  # before the match below tries each of its cases
            self._dispatch(node)
            return
        env = self.ctx.scope.env
        match node:
            case ast.Expr(value=value):
                self.expr(value)
            case ast.Assign(targets=targets, value=value):
                labels = self.expr(value)
                for target in targets:
                    self.bind(target, labels, value)
            case ast.AnnAssign(target=target, annotation=annotation, value=value):
                declared = self.facts.annotation(annotation)
                labels = self.expr(value) if value is not None else L.NOTHING
                if declared & _DECLARED and isinstance(target, ast.Name):
                    scope = self.ctx.scope
                    if scope.declared is None:
                        scope.declared = {}
                    scope.declared[target.id] = declared & (_DECLARED | L.MAYBE_NONE)
                if value is not None or declared:
                    self.bind(target, declared or labels, value)
            case ast.AugAssign(target=target, value=value):
                current = (
                    self.expr(target)
                    if not isinstance(target, ast.Name)
                    else env.get(target.id, L.OTHER)
                )
                self.ctx.remember(target, current)
                labels = self.expr(value)
                combined = current
                if isinstance(node.op, ast.Add):
                    # `parts += [result]` holds it; `text += str(result)` is computed from it
                    kept = labels & (L.RESULTS | L.MAPPING | L.ARTIFACT | L.TOOLS)
                    combined = current | kept | L.derived(labels)
                if isinstance(target, ast.Name):
                    env.set(target.id, combined)
            case ast.Return(value=value):
                labels = self.expr(value) if value is not None else L.OTHER
                self._returns = join_bound(self._returns, labels)
            case ast.If(test=test, body=body, orelse=orelse):
                self.expr(test)
                narrowed, positive = self._narrowing(test)
                if narrowed:
                    then, other = (narrowed, ()) if positive else ((), narrowed)
                    self.branches(
                        [
                            partial(self._narrowed, then, body),
                            partial(self._narrowed, other, orelse),
                        ]
                    )
                else:
                    self.branches([body, orelse])
            case ast.While(test=test, body=body, orelse=orelse):

                def rerun() -> None:
                    self.expr(test)
                    self.block(body)

                self.loop(node, rerun, orelse)
            case (
                ast.For(target=target, iter=iterable, body=body, orelse=orelse)
                | ast.AsyncFor(target=target, iter=iterable, body=body, orelse=orelse)
            ):
                labels = self.expr(iterable)

                def iterate() -> None:
                    self.bind_iteration(target, labels, iterable)
                    self.block(body)

                self.loop(node, iterate, orelse)
            case ast.With(items=items, body=body) | ast.AsyncWith(items=items, body=body):
                for item in items:
                    labels = self.expr(item.context_expr)
                    if item.optional_vars is not None:
                        self.bind(item.optional_vars, labels, item.context_expr)
                self.block(body)
            case (
                ast.Try(body=body, handlers=handlers, orelse=orelse, finalbody=finalbody)
                | ast.TryStar(body=body, handlers=handlers, orelse=orelse, finalbody=finalbody)
            ):
                env.push()
                self.block(body)
                self.block(orelse)
                before = env.keep()  # a handler may start from any point of the body
                for handler in handlers:
                    for name, old in before.items():
                        env.set(name, join_bound(env.lookup(name), old))
                    if handler.type is not None:
                        self.expr(handler.type)
                    if handler.name:
                        env.set(handler.name, L.OTHER)
                    self.block(handler.body)
                self.block(finalbody)
            case ast.Match(subject=subject, cases=cases):
                labels = self.expr(subject)
                runs = [partial(self._case, case, labels) for case in cases]
                self.branches([*runs, lambda: None])
            case ast.FunctionDef() | ast.AsyncFunctionDef():
                for decorator in node.decorator_list:
                    self.expr(decorator)
                self._dispatch(node)
                scope = self.ctx.scope
                if isinstance(scope.node, ast.FunctionDef | ast.AsyncFunctionDef):
                    env.set(node.name, L.OTHER)  # a local function: called through a summary
                    env.bind_callee(node.name, self._callee(node.name, node))
                else:
                    env.delete(node.name)  # a def is a module fact, not a tracked value
                returned = self.function(node)
                if scope is self._module:
                    self._returned[node.name] = returned
            case ast.ClassDef():
                for base in node.bases:
                    self.expr(base)
                self._dispatch(node)
                env.delete(node.name)
                self.klass(node)
            case ast.Delete(targets=targets):
                for target in targets:
                    if isinstance(target, ast.Name):
                        env.delete(target.id)
                    else:
                        self.expr(target)
            case ast.Raise(exc=exc, cause=cause):
                for part in (exc, cause):
                    if part is not None:
                        self.expr(part)
            case ast.Assert(test=test, msg=msg):
                self.expr(test)
                if msg is not None:
                    self.expr(msg)
            case _:
                pass
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self._dispatch(node)

    def _narrowing(self, test: ast.expr) -> tuple[tuple[tuple[str, int], ...], bool]:
        """Names that `test` proves are not a single result (`isinstance(x, str)`, also
        under `and`), each with what it keeps (`_narrow`), and whether that holds in the
        body (or, under `not`, the orelse)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            names, positive = self._narrowing(test.operand)
            return names, not positive
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            found: list[tuple[str, int]] = []
            for value in test.values:
                names, positive = self._narrowing(value)
                if positive:
                    found.extend(names)
            return tuple(found), True
        if (
            isinstance(test, ast.Call)
            and len(test.args) == 2
            and not test.keywords
            and isinstance(test.args[0], ast.Name)
            and self.ctx.qualify(test.func) == "builtins.isinstance"
        ):
            kinds = test.args[1]
            parts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            mask = self._narrow_mask(parts)
            if mask is not None:
                return ((test.args[0].id, mask),), True
        return (), True

    def _narrow_mask(self, kinds: Sequence[ast.expr]) -> int | None:
        """What a value proved to be of one of `kinds` keeps of its labels (a number or a
        string holds no result; a builtin container is not one), or None: not known."""
        names = [self.ctx.qualify(kind) for kind in kinds]
        if not names or not all(n in _NOT_RESULTS for n in names):
            return None
        if all(n in _SCALARS for n in names):
            return _SCALAR_KEEPS
        return ~_CONTAINER_DROPS

    def _narrowed(self, names: tuple[tuple[str, int], ...], body: list[ast.stmt]) -> None:
        env = self.ctx.scope.env
        for name, mask in names:
            labels = env.lookup(name)
            if labels != UNBOUND and labels & ~mask:
                env.set(name, labels & mask or L.OTHER)
        self.block(body)

    def _case(self, case: ast.match_case, subject: int) -> None:
        self.bind_pattern(case.pattern, subject)
        if case.guard is not None:
            self.expr(case.guard)
        self.block(case.body)

    def branches(self, bodies: list[list[ast.stmt] | Callable[[], None]]) -> None:
        """Run each body from the same state and join them, touching only what they write."""
        env = self.ctx.scope.env
        outcomes = []
        starts: dict[str, int] = {}
        for body in bodies:
            env.push()
            if callable(body):
                body()
            else:
                self.block(body)
            replaced, written = env.pop()
            starts.update(replaced)
            outcomes.append(written)
        self.work += len(starts) * len(outcomes)
        for name, start in starts.items():
            joined = UNBOUND
            for written in outcomes:
                joined = join_bound(joined, written.get(name, start))
            env.set(name, joined)

    def loop(self, node: ast.stmt, one_pass: Callable[[], None], orelse: list[ast.stmt]) -> None:
        """Run `one_pass` until the environment at the loop head stops growing.

        The head starts from the fixpoint this loop reached on its last visit (labels only
        grow from one visit to the next), and when everything the loop reads is as it was
        then, the loop is not re-run at all: a loop nested d deep costs O(d), not 2^d.
        """
        env = self.ctx.scope.env
        key = id(node)
        memo = self._heads.get(key)
        if memo is not None:
            head, reads, snapshot = memo
            same = reads is not None
            for name, labels in head.items():
                old = env.lookup(name)
                new = join_bound(old, labels)
                if new != labels:
                    same = False  # the entry brings what the last fixpoint lacked
                if new != old:
                    env.set(name, new)
            if same and reads is not None and tuple(map(env.lookup, reads)) == snapshot:
                self.block(orelse)
                return
        head = {}
        self._looping += 1
        try:
            while True:
                env.push()
                one_pass()
                replaced, written = env.pop()
                grew = False
                self.work += len(written)
                for name, labels in written.items():
                    old = replaced[name]
                    new = join_bound(old, labels)
                    if new != old:
                        env.set(name, new)
                        grew = True
                    head[name] = new
                if not grew:
                    break
        finally:
            self._looping -= 1
        # Only a loop inside another loop's pass can be visited again; what it writes is
        # compared through its head, what it only reads through a snapshot.
        reads = tuple(k for k in self._reads(node) if k not in head) if self._looping else None
        self._heads[key] = (head, reads, tuple(map(env.lookup, reads or ())))
        self.block(orelse)

    def _reads(self, node: ast.AST) -> tuple[str, ...]:
        """Every environment key that the statements under `node` may read. A nested loop
        has finished first and stored its own, so each node is walked once."""
        keys: set[str] = set()
        stack = [*ast.iter_child_nodes(node)]
        while stack:
            sub = stack.pop()
            if isinstance(sub, ast.Name):
                keys.add(sub.id)
                continue
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                keys.add(f"{sub.value.id}.{sub.attr}")
            elif isinstance(sub, ast.For | ast.AsyncFor | ast.While):
                known = self._heads.get(id(sub))
                if known is not None and known[1] is not None:
                    keys.update(known[0])  # what it writes, and
                    keys.update(known[1])  # what it only reads
                    stack.extend(sub.orelse)  # the memo covers the loop, not its else
                    stack.append(sub.iter if not isinstance(sub, ast.While) else sub.test)
                    continue
            stack.extend(ast.iter_child_nodes(sub))
        return tuple(keys)

    # -- binding ------------------------------------------------------------------------------

    def bind(self, target: ast.expr, labels: int, value: ast.expr | None) -> None:
        env = self.ctx.scope.env
        if isinstance(target, ast.Name):
            declared = self.ctx.scope.declared
            if (
                declared
                and target.id in declared
                and not labels & ~_UNKNOWN
                and not isinstance(value, ast.Constant)
            ):
                # `x: ToolResult | None = None`, then `x = fetch(...)`: still declared so
                labels = declared[target.id]
            if target.id in self.ctx.scope.seeds:
                labels = self._seed(labels, value)
            env.set(target.id, labels or L.OTHER)
            if env.callables is not None or isinstance(value, ast.Lambda | ast.Call):
                env.bind_callee(target.id, self._callee(target.id, value))
        elif isinstance(target, ast.Tuple | ast.List):
            if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts):
                for sub, part in zip(target.elts, value.elts, strict=True):
                    self.bind(sub, self.ctx.labels(part), part)
                return
            parts = None
            if not any(isinstance(e, ast.Starred) for e in target.elts):
                parts = L.tuple_parts(labels, len(target.elts))
            if parts is not None:
                for sub, labels_at in zip(target.elts, parts, strict=True):
                    self.bind(sub, labels_at, None)
            else:
                for sub in target.elts:
                    self.bind(sub, L.element_of(labels), None)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, labels, None)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value)
            key = _attribute_key(target)
            if key is not None:
                env.set(key, labels or L.OTHER)
            cls = self.ctx.scope.cls
            if (
                cls is not None
                and labels & L.TAINT
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                # seen by every method of the class (the class body is re-run if it grows)
                known = cls.assigned.get(target.attr, L.NOTHING)
                cls.assigned[target.attr] = known | (labels & L.BASE)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)
            if isinstance(target.value, ast.Name):
                name = target.value.id
                kept = labels & L.ARTIFACT
                if labels & (L.RESULT | L.RESULTS | L.MAPPING):
                    kept |= L.MAPPING
                env.set(name, env.get(name, L.OTHER) | kept)

    def bind_iteration(self, target: ast.expr, labels: int, iterable: ast.expr) -> None:
        """Bind a loop target; each name of a tuple target gets its own position's labels
        when the elements' shape is known (`enumerate`, `zip`, `.items()`, a list of
        tuples), so `for k, v in mapping.items()` gives results only to `v`."""
        if isinstance(target, ast.Tuple | ast.List) and not any(
            isinstance(e, ast.Starred) for e in target.elts
        ):
            parts = L.element_parts(labels, len(target.elts))
            if parts is not None:
                for sub, labels_at in zip(target.elts, parts, strict=True):
                    self.bind(sub, labels_at, None)
                return
        self.bind(target, L.element_of(labels), None)

    def bind_pattern(self, pattern: ast.pattern, subject: int) -> None:
        """The names a `case` pattern captures, labelled from the subject's labels."""
        env = self.ctx.scope.env
        match pattern:
            case ast.MatchAs(pattern=inner, name=name):
                if isinstance(inner, ast.MatchClass):
                    # `case str() as text`: `text` is a str, not the subject's union
                    mask = self._narrow_mask([inner.cls])
                    if mask is not None:
                        subject = subject & mask or L.OTHER
                if inner is not None:
                    self.bind_pattern(inner, subject)
                if name is not None:
                    env.set(name, subject or L.OTHER)
            case ast.MatchOr(patterns=patterns):
                for inner in patterns:
                    self.bind_pattern(inner, subject)
            case ast.MatchSequence(patterns=patterns):
                parts = L.tuple_parts(subject, len(patterns))
                for index, inner in enumerate(patterns):
                    if isinstance(inner, ast.MatchStar):
                        if inner.name is not None:
                            env.set(inner.name, subject & L.BASE or L.OTHER)
                        parts = None  # positions after a star are not known
                    else:
                        labels = parts[index] if parts else L.element_of(subject)
                        self.bind_pattern(inner, labels)
            case ast.MatchMapping(keys=keys, patterns=patterns, rest=rest):
                for key in keys:
                    self.expr(key)
                value = L.RESULT if subject & L.MAPPING else L.element_of(subject)
                for inner in patterns:
                    self.bind_pattern(inner, value)
                if rest is not None:
                    env.set(rest, subject & L.BASE or L.OTHER)
            case ast.MatchClass(cls=cls, patterns=patterns, kwd_attrs=attrs, kwd_patterns=kwds):
                self.expr(cls)
                result = self.facts.is_result_class(self.ctx.qualify(cls))
                mask = self._narrow_mask([cls])
                # `case str(text)`: a builtin's one positional pattern is the subject
                positional = L.OTHER
                if mask is not None and len(patterns) == 1:
                    positional = subject & mask or L.OTHER
                for inner in patterns:
                    self.bind_pattern(inner, positional)
                for attr, inner in zip(attrs, kwds, strict=True):
                    labels = L.OTHER
                    if result and attr == "content":
                        labels = L.CONTENT | L.STR
                    elif result and attr == "artifacts":
                        labels = L.ARTIFACT
                    self.bind_pattern(inner, labels)
            case ast.MatchStar(name=name) if name is not None:
                env.set(name, subject & L.BASE or L.OTHER)
            case ast.MatchValue(value=value):
                self.expr(value)
            case _:
                pass

    # -- expressions --------------------------------------------------------------------------

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
        env = self.ctx.scope.env
        match node:
            case ast.Name(id=name):
                return env.get(name, L.OTHER)
            case ast.Constant(value=value):
                return L.STR | L.OTHER if isinstance(value, str) else L.OTHER
            case ast.Attribute():
                return self.attribute(node)
            case ast.Call():
                return self.call(node)
            case ast.Await(value=value):
                return self.expr(value)
            case ast.JoinedStr(values=values):
                out = L.NOTHING
                for value in values:
                    out |= self.expr(value)
                return L.STR | L.derived(out)
            case ast.FormattedValue(value=value, format_spec=spec):
                out = self.expr(value)
                if spec is not None:
                    self.expr(spec)
                return out
            case ast.BinOp(left=left, right=right, op=op):
                a, b = self.expr(left), self.expr(right)
                out = L.derived(a | b)
                if isinstance(op, ast.Mod | ast.Add) and (a | b) & L.STR:
                    out |= L.STR
                return out
            case ast.BoolOp(values=values):
                out = self.expr(values[0])
                for value in values[1:]:
                    out = L.join(out, self.expr(value))
                return out
            case ast.UnaryOp(operand=operand):
                self.expr(operand)
                return L.OTHER
            case ast.Compare(left=left, comparators=comparators):
                for part in [left, *comparators]:
                    self.expr(part)
                return L.OTHER
            case ast.IfExp(test=test, body=body, orelse=orelse):
                self.expr(test)
                return L.join(self.expr(body), self.expr(orelse))
            case ast.NamedExpr(target=target, value=value):
                labels = self.expr(value)
                self.bind(target, labels, value)
                return labels
            case ast.List(elts=elts) | ast.Tuple(elts=elts) | ast.Set(elts=elts):
                out = L.NOTHING
                for element in elts:
                    out |= self.expr(element)
                out = _container(out, L.RESULTS) | self._element_shape(elts)
                if isinstance(node, ast.Tuple) and not any(
                    isinstance(e, ast.Starred) for e in elts
                ):
                    out |= L.a_tuple([self.ctx.labels(e) for e in elts])
                return out
            case ast.Dict(keys=keys, values=values):
                out = L.NOTHING
                for key in keys:
                    if key is not None:
                        self.expr(key)
                for value in values:
                    out |= self.expr(value)
                return _container(out, L.MAPPING)
            case ast.Starred(value=value):
                return self.expr(value)
            case ast.Subscript(value=value, slice=index):
                owner = self.expr(value)
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
            case ast.Slice(lower=lower, upper=upper, step=step):
                for bound in (lower, upper, step):
                    if bound is not None:
                        self.expr(bound)
                return L.OTHER
            case (
                ast.ListComp(elt=elt, generators=gens)
                | ast.SetComp(elt=elt, generators=gens)
                | ast.GeneratorExp(elt=elt, generators=gens)
            ):
                out = self.comprehension(gens, [elt], L.RESULTS)
                return out | self._element_shape([elt])
            case ast.DictComp(key=key, value=value, generators=gens):
                return self.comprehension(gens, [key, value], L.MAPPING, values_from=1)
            case ast.Lambda():
                self.function(node)
                return L.OTHER
            case ast.Yield(value=value):
                labels = self.expr(value) if value is not None else L.OTHER
                self._yields = join_bound(self._yields, labels)
                return L.OTHER
            case ast.YieldFrom(value=value):
                self._yields = join_bound(self._yields, L.element_of(self.expr(value)))
                return L.OTHER
            case _:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.expr):
                        self.expr(child)
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
        out = L.NOTHING
        for index, part in enumerate(parts):
            labels = self.expr(part)
            if index >= values_from:
                out |= labels
        env.pop()
        return _container(out, kind)

    def attribute(self, node: ast.Attribute) -> int:
        env = self.ctx.scope.env
        key = _attribute_key(node)
        if key is not None and key in env:
            self.expr(node.value)
            return env.get(key)
        return self._member(self.expr(node.value), node.attr, node.value)

    def _member(self, owner: int, attr: str, value: ast.expr | None) -> int:
        """Labels of `<value>.attr`, also of `getattr(<value>, "attr")`."""
        model = self.facts.model
        if attr in model.wire_fields and not owner & L.ARTIFACT:
            return L.CONTENT | L.STR
        if attr in model.barriers:
            return L.OTHER
        if owner & L.RESULT and (attr in model.run_only or attr in model.serialiser_attributes):
            return L.ARTIFACT
        if owner & L.ARTIFACT:
            return L.ARTIFACT
        out = L.NOTHING
        for cls in self._owner_classes(value, owner):
            out |= cls.attributes.get(attr, L.NOTHING) | cls.assigned.get(attr, L.NOTHING)
        return out or L.OTHER

    def call(self, node: ast.Call) -> int:
        func = node.func
        receiver = L.NOTHING
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value)
            self.ctx.remember(func, receiver)
        else:
            self.expr(func)
        arguments = L.NOTHING
        first = L.NOTHING
        for index, arg in enumerate(node.args):
            labels = self.expr(arg)
            arguments |= labels
            if index == 0:
                first = labels
        for keyword in node.keywords:
            arguments |= self.expr(keyword.value)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.attr in _ADDERS
            and node.args
        ):
            # `parts.append(result)`: the list now holds what was added
            last = self.ctx.labels(node.args[-1])
            one = func.attr != "extend"
            added = _container(last, L.RESULTS) if one else last
            kept = added & (L.WHOLE | L.ARTIFACT | L.TOOLS)
            if kept:
                env = self.ctx.scope.env
                env.set(func.value.id, env.get(func.value.id) | kept)
        return self._call_result(node, func, receiver, first, arguments)

    def _call_result(
        self, node: ast.Call, func: ast.expr, receiver: int, first: int, arguments: int
    ) -> int:
        facts = self.facts
        if isinstance(func, ast.Name):
            callee = self.ctx.scope.env.callee(func.id)
            if callee is not None:
                return self._call_local(node, callee, arguments)
        elif isinstance(func, ast.Attribute) and func.attr in _RUNNER_METHODS:
            at = _RUNNER_METHODS[func.attr]
            if len(node.args) > at and not any(
                isinstance(a, ast.Starred) for a in node.args[: at + 1]
            ):
                return self._expand(node, node.args[at], node.args[at + 1 :], [])
        dotted = self.ctx.qualify(func)
        if dotted is not None:
            if dotted in _RUNNERS and len(node.args) > _RUNNERS[dotted]:
                at = _RUNNERS[dotted]
                if not any(isinstance(a, ast.Starred) for a in node.args[: at + 1]):
                    return self._expand(
                        node, node.args[at], node.args[at + 1 :], list(node.keywords)
                    )
            if facts.is_result_class(dotted):
                return facts.result(dotted)
            factory_of = dotted.rpartition(".")[0]
            if facts.is_result_class(factory_of):
                return facts.result(factory_of)
            if facts.is_artifact_class(dotted) or facts.is_artifact_class(
                dotted.rpartition(".")[0]
            ):
                return L.ARTIFACT
            if facts.is_source_call(dotted):
                found = facts.source_call_result(dotted, node, self.ctx.labels)
                if found:
                    return found
            known = facts.instance_of(dotted)
            if known:
                return known
            if facts.is_logger_class(dotted) or dotted in facts.model.logger_factories:
                return L.LOGGER
            if dotted in _OPAQUE:
                return L.OTHER
            if dotted in _COLLECTORS:
                return (
                    (first & (L.RESULTS | L.ARTIFACT))
                    | _container(L.element_of(first), L.RESULTS)
                    | L.shape_of(first)
                    | L.OTHER
                )
            if dotted == "builtins.enumerate" and node.args:
                element = L.element_of(first)
                return _container(element, L.RESULTS) | L.of_tuples([L.OTHER, element])
            if dotted == "builtins.zip" and node.args and not node.keywords:
                if not any(isinstance(a, ast.Starred) for a in node.args):
                    elements = [L.element_of(self.ctx.labels(a)) for a in node.args]
                    inner = L.NOTHING
                    for element in elements:
                        inner |= element
                    return _container(inner, L.RESULTS) | L.of_tuples(elements)
            if dotted in _AWAITERS:
                return first or L.OTHER
            if dotted in _PICKERS:
                return L.element_of(first)
            if dotted in facts.model.wrappers:
                return _container(arguments & L.BASE, L.MAPPING)
            if dotted in facts.model.stringifiers:
                return L.STR | L.derived(arguments)
            if (
                dotted == "builtins.getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                return self._member(first, node.args[1].value, None)
            if dotted == "builtins.dict":
                return (first | arguments) & (L.MAPPING | L.ARTIFACT) or L.OTHER
            export = self.imported.get(dotted)
            if export is not None:
                return self._imported_call(node, dotted, export, arguments)
            summary = None
            if isinstance(func, ast.Name) and func.id in self._defs:
                summary = self._call_summary(node, func.id)
            if isinstance(func, ast.Name) and func.id in facts.functions:
                return _declared(facts.functions[func.id], receiver | arguments)
            if summary is not None:
                return summary.returns
            cls = facts.local_class(func)
            if cls is not None:
                return (L.TOOL if cls.is_tool else L.OTHER) | L.instance(cls.index)
            if facts.is_tool_class(dotted):
                return L.TOOL
        if isinstance(func, ast.Attribute):
            method = func.attr
            scope = self.ctx.scope
            if (
                isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and scope.cls is not None
                and arguments & L.TAINT
            ):
                summary = self._method_summary(node, scope.cls, method)
                if summary is not None and method not in scope.cls.returns:
                    return summary.returns
            if receiver & L.TOOL and method in facts.tool_methods:
                return L.RESULT
            if receiver & L.SOURCE_OWNER and method in facts.model.source_methods:
                found = facts.source_method_result(method, node, self.ctx.labels)
                if found:
                    return found
            for owner in self._owner_classes(func.value, receiver):
                if method in owner.returns:
                    return _declared(owner.returns[method], receiver | arguments)
            if receiver & L.MAPPING and method in _MAPPING_PICKERS:
                return L.RESULT | (receiver & L.ARTIFACT)
            if receiver & L.MAPPING and method in _MAPPING_VIEWS:
                return L.RESULTS | (receiver & L.ARTIFACT)
            if method == "items" and not node.args:
                artifacts = receiver & L.ARTIFACT
                value = (L.RESULT if receiver & L.MAPPING else L.NOTHING) | artifacts or L.OTHER
                return L.derived(receiver | arguments) | L.of_tuples([L.OTHER | artifacts, value])
            if receiver & L.RESULTS and method in _SEQUENCE_PICKERS:
                return L.RESULT | (receiver & L.ARTIFACT)
            if receiver & L.RESULT and method in ("to_flowdrop", "audit_record"):
                return L.ARTIFACT
            if (
                method == "join"
                and isinstance(func.value, ast.Constant)
                and len(node.args) == 1
                and isinstance(node.args[0], ast.GeneratorExp | ast.ListComp)
                and not node.keywords
                and first & (L.TAINT | L.STR) == L.CONTENT
            ):
                # `"\n".join(b.text for b in result.content)`: the wire texts of an MCP
                # result's blocks, joined, are the text the model reads
                return L.CONTENT | L.STR
            if receiver & L.STR and method in _STR_METHODS:
                return L.STR | L.derived(receiver | arguments)
        return L.derived(receiver | arguments)

    # -- run-only slots -------------------------------------------------------------------

    def _seeds(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
    ) -> frozenset[str]:
        """The names whose values `node` puts in a run-only slot: the second item of the
        pair a content-and-artifact tool returns, a `run-only-arguments` argument
        (`ToolReturn(metadata=rows)`). Bound, they are artifacts (`_seed`), so the same
        data serialised into the wire slot too is TW302. One walk of the function's own
        body (nested functions get theirs), only where a slot can be."""
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
        if table or pairs:
            stack: list[ast.AST] = list(node.body)
            while stack:
                sub = stack.pop()
                slots: list[ast.expr] = []
                if pairs and isinstance(sub, ast.Return) and isinstance(sub.value, ast.Tuple):
                    items = sub.value.elts
                    if len(items) > 1 and facts.returns_to_wire(node, cls, sub.value) is items[0]:
                        slots = items[1:]
                elif table and isinstance(sub, ast.Call) and _last_name(sub.func) in words:
                    slots = [p for _, p in call_sink_payloads(sub, self.ctx, table)]
                for slot in slots:
                    names |= _free_names(slot)
                for child in ast.iter_child_nodes(sub):
                    if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        continue
                    if table or isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                        stack.append(child)
        found = self._seeded[key] = frozenset(names)
        return found

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
            if dotted in _OPAQUE or dotted in _NUMBERS or self._returns_scalar(value.func):
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
        return returns is not None and self.ctx.qualify(returns) in _SCALARS

    # -- local callables ------------------------------------------------------------------

    def _callee(self, name: str, value: ast.AST | None) -> Callee | None:
        """What a name bound to `value` runs when called: a lambda or a nested def (through
        a summary, in the scope it closes over), or a `functools.partial(f, ...)`."""
        if isinstance(value, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef):
            key = f"{id(value)}.{name}"
            self._defs[key] = value
            self._closures[key] = self.ctx.scope
            return key, value
        if (
            isinstance(value, ast.Call)
            and value.args
            and not isinstance(value.args[0], ast.Starred)
            and self.ctx.qualify(value.func) in _PARTIALS
        ):
            return value
        return None

    def _call_local(self, node: ast.Call, callee: Callee, arguments: int) -> int:
        if isinstance(callee, ast.Call):  # `send = partial(f, a)`, `send(b)`: `f(a, b)`
            if id(callee) in self._partials:
                # `f = partial(f, a)` wraps the `f` bound before; the name now finds itself
                return L.derived(arguments)
            args = [*callee.args[1:], *node.args]
            self._partials.add(id(callee))
            try:
                return self._expand(node, callee.args[0], args, [*callee.keywords, *node.keywords])
            finally:
                self._partials.discard(id(callee))
        summary = self._call_summary(node, callee[0])
        return summary.returns if summary is not None else L.derived(arguments)

    def _expand(
        self, node: ast.Call, func: ast.expr, args: list[ast.expr], keywords: list[ast.keyword]
    ) -> int:
        """A call made on the code's behalf (`partial`, `run_in_executor`, `to_thread`),
        written out at `node` and checked like a call written there."""
        labels = self.ctx.labels
        arguments = L.NOTHING
        for arg in args:
            arguments |= labels(arg)
        for keyword in keywords:
            arguments |= labels(keyword.value)
        if self._expanding >= _SUMMARY_DEPTH:
            return L.derived(arguments)
        self.work += 1
        call = ast.copy_location(ast.Call(func=func, args=args, keywords=keywords), node)
        receiver = labels(func.value) if isinstance(func, ast.Attribute) else L.NOTHING
        first = labels(args[0]) if args else L.NOTHING
        self._expanding += 1
        try:
            out = self._call_result(call, func, receiver, first, arguments)
        finally:
            self._expanding -= 1
        self.ctx.remember(call, out)
        self._dispatch(call)
        return out

    # -- across modules -------------------------------------------------------------------

    def _imported_call(
        self, node: ast.Call, dotted: str, export: FunctionExport, arguments: int
    ) -> int:
        """A call of a function of another module of the run, through its export."""
        given = None
        if export.effects is not None and not any(isinstance(a, ast.Starred) for a in node.args):
            labels = self.ctx.labels
            given = dict(zip(export.params, map(labels, node.args), strict=False))
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg in export.keywords:
                    given[keyword.arg] = labels(keyword.value)
        if given is None or len(node.args) > len(export.params):
            return _declared(export.returns, arguments)
        out = UNBOUND
        shown = dotted.rpartition(".")[2]
        for effect in export.effects or ():
            if given.get(effect.param, L.NOTHING) & _KIND_MASKS[effect.kind]:
                out = join_bound(out, effect.returns)
                for origin in effect.findings:
                    module, line, code, message = origin
                    text = (
                        f"{shown}() is given {self._given(node)}, and in {module} at line "
                        f"{line}: {message}"
                    )
                    self.ctx.report(code, node, text)
                    self._origins[text] = origin
        return export.returns if out == UNBOUND else out

    def exports(self, demanded: frozenset[str]) -> Exports:
        """What this module gives the modules that import it: its tool classes, what its
        functions return, and for the functions they import, per parameter what a result
        (or results, an artifact, `.content`, a string made from one) given to it does."""
        module = self.facts.module or ""
        tools = frozenset(c.qualname for c in self.facts.classes.values() if c.is_tool)
        functions = {}
        for name in self._top:
            definition = self._defs[name]
            returns = self.facts.functions.get(name) or self._returned.get(name, L.NOTHING)
            export = None
            if name in demanded and not isinstance(definition, ast.Lambda):
                export = self._export(name, definition, returns & _KEPT)
            if export is None and returns & _KEPT:
                export = FunctionExport(returns & _KEPT)
            if export is not None:
                functions[f"{module}.{name}"] = export
        return Exports(tools, functions)

    def _export(
        self, name: str, definition: ast.FunctionDef | ast.AsyncFunctionDef, returns: int
    ) -> FunctionExport | None:
        """Per parameter and kind, what the function does differently; None when nothing."""
        args = definition.args
        params = tuple(a.arg for a in [*args.posonlyargs, *args.args])
        keywords = frozenset(a.arg for a in [*args.args, *args.kwonlyargs])
        every = [*params, *(a.arg for a in args.kwonlyargs)]
        # What the main pass found is what the function does unprompted.
        known = {(f.line, f.column, f.code) for f in self.ctx.findings.values()}
        # One run with every parameter given every kind at once: when even that changes
        # nothing, no single one does (the common case, and the cost of most exports).
        together = self._summary(name, dict.fromkeys(every, _EVERY_KIND))
        if together is None or (
            together.returns & _KEPT == returns
            and all((f.line, f.column, f.code) in known for f in together.findings)
        ):
            return None
        baseline = self._summary(name, {})
        if baseline is None:
            return None
        known |= {(f.line, f.column, f.code) for f in baseline.findings}
        module = self.facts.module or ""
        effects = []
        for param in every:
            alone = self._summary(name, {param: _EVERY_KIND})
            if alone is None or (
                alone.returns == baseline.returns
                and all((f.line, f.column, f.code) in known for f in alone.findings)
            ):
                continue
            for kind, _ in KINDS:
                one = self._summary(name, {param: kind})
                if one is None:
                    continue
                found = tuple(
                    self._origin(module, f)
                    for f in one.findings
                    if (f.line, f.column, f.code) not in known
                )
                if found or one.returns != baseline.returns:
                    effects.append(Effect(param, kind, one.returns, found))
        if not effects and not baseline.returns & _KEPT:
            return None
        return FunctionExport(baseline.returns, params, keywords, tuple(effects))

    def _origin(self, module: str, finding: Finding) -> tuple[str, int, str, str]:
        """Where a finding of a summary happens: a chain of calls across modules names
        only its last link, so the message does not grow with the chain."""
        origin = self._origins.get(finding.message)
        return origin or (module, finding.line, finding.code, finding.message)

    # -- function summaries ---------------------------------------------------------------

    def _method_summary(self, node: ast.Call, cls: ClassInfo, method: str) -> Summary | None:
        """`self.helper(result)` in a method: the summary of the class's own method, when
        the call passes a result or a value from one."""
        definition = next(
            (
                s
                for s in cls.node.body
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == method
            ),
            None,
        )
        if definition is None or any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in definition.decorator_list
        ):
            return None
        key = f"{cls.qualname}.{method}"
        if key not in self._defs:
            self._defs[key] = definition
            self._owners[key] = cls
        return self._call_summary(node, key, bound=True)

    def _call_summary(self, node: ast.Call, name: str, bound: bool = False) -> Summary | None:
        """The summary of a function of the module for this call's arguments; the findings
        that the arguments cause inside it are reported at the call."""
        definition = self._defs[name]
        given = self._arguments(definition, node, bound)
        if given is None:
            return None
        if not any(labels & (L.TAINT | L.TOOL | L.TOOLS) for labels in given.values()):
            if bound:
                return None  # a method's declared return is a module fact already
            if name in self._returned:
                return Summary(self._returned[name], [])
            if not self._may_return_result(definition):
                return None
            given = {}
        summary = self._summary(name, given)
        if summary is None or not given:
            return summary
        baseline = self._summary(name, {})
        known = {(f.line, f.column, f.code) for f in baseline.findings} if baseline else set()
        for finding in summary.findings:
            if (finding.line, finding.column, finding.code) not in known:
                shown = name.rpartition(".")[2]
                self.ctx.report(
                    finding.code,
                    node,
                    f"{shown}() is given {self._given(node)}, and at line {finding.line}: "
                    f"{finding.message}",
                )
        return summary

    def _summary(self, name: str, given: dict[str, int]) -> Summary | None:
        key = (name, tuple(sorted(given.items())))
        if key in self._summaries:
            return self._summaries[key]  # None: a recursive call, assumed to add nothing
        if self._nesting >= _SUMMARY_DEPTH:
            return None  # a call chain this deep is followed no further
        self._summaries[key] = None
        ctx = self.ctx
        saved = ctx.findings, ctx.scope, self._heads, self._looping
        owner = self._owners.get(name)
        outer = self._closures.get(name, self._module)
        if owner is not None:  # a method: interpreted in its class's scope
            outer = Scope(owner.node, owner.qualname.lstrip("."), owner, Env(self._module.env))
        ctx.findings, ctx.scope, self._heads, self._looping = {}, outer, {}, 0
        self._nesting += 1
        try:
            returns = self.function(self._defs[name], given)
            found = list(ctx.findings.values())
        finally:
            self._nesting -= 1
            ctx.findings, ctx.scope, self._heads, self._looping = saved
        self.work += 1
        summary = self._summaries[key] = Summary(returns, found)
        return summary

    def _arguments(
        self, definition: Definition, node: ast.Call, bound: bool
    ) -> dict[str, int] | None:
        """Parameter → labels of the argument this call passes, or None when unclear."""
        args = definition.args
        positional = [*args.posonlyargs, *args.args][1 if bound else 0 :]
        if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > len(positional):
            return None
        labels = self.ctx.labels
        pairs = zip(positional[: len(node.args)], node.args, strict=True)
        given = {param.arg: labels(arg) for param, arg in pairs}
        names = {a.arg for a in [*args.args, *args.kwonlyargs]}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in names:
                return None
            given[keyword.arg] = labels(keyword.value)
        return given

    def _given(self, node: ast.Call) -> str:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if self.ctx.labels(arg) & L.TAINT:
                return self.ctx.describe(arg)
        return "its arguments"

    def _may_return_result(self, definition: Definition) -> bool:
        """Whether a summary can say more than "returns something else": the function is
        not one the per-definition pre-filter skips, or (without it) names a marker."""
        if self._skip is not None:
            return id(definition) not in self._skip
        name = getattr(definition, "name", "<lambda>")
        found = self._relevant.get(name)
        if found is None:
            start, end = definition.lineno, definition.end_lineno or definition.lineno
            text = "\n".join(self.ctx.lines[start - 1 : end])
            found = self._relevant[name] = relevant(text, self.facts.config)
        return found

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
        classes = self.facts.by_index
        return [classes[i] for i in L.instances(labels) if i < len(classes)]


@dataclass
class Summary:
    returns: int  # labels of what the call returns
    findings: list[Finding]  # what its body reports, given these arguments


_KIND_MASKS = {kind: mask for kind, mask in KINDS}
_EVERY_KIND = functools.reduce(operator.or_, (kind for kind, _ in KINDS))
_KEPT = L.TAINT | L.TOOL | L.TOOLS  # what an export's return is worth telling


def _declared(returns: int, inputs: int) -> int:
    """A call's labels from its return annotation: a result is a result, whatever went in;
    a `str` built from a result is still computed from it."""
    if returns & (L.WHOLE | L.TOOL | L.TOOLS | L.ARTIFACT | L.LOGGER):
        return returns
    return returns | L.derived(inputs)


def _container(inner: int, kind: int) -> int:
    out = (inner & (L.ARTIFACT | L.TOOLS)) | L.OTHER
    if inner & (L.RESULT | L.RESULTS | L.MAPPING):
        out |= kind | (inner & L.SAFE_STR)
    if inner & L.TOOL:
        out |= L.TOOLS
    if inner & L.DERIVED:
        out |= L.DERIVED
    elif inner & L.CONTENT:
        # `{"result": result.content}`, `[{"type": "text", "text": result.content}]`: a
        # structure around exactly the wire field adds nothing from the result
        out |= L.CONTENT
    return out


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


def _attribute_key(node: ast.Attribute) -> str | None:
    if isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None
