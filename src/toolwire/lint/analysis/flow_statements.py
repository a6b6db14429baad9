"""The flow's statements: each interpreted in source order, branches joined, loops run
to a fixpoint over their head, and the names a target, a loop or a pattern binds."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import UNBOUND, join_bound
from toolwire.lint.analysis.flow_base import DECLARED, SCALARS, FlowBase, attribute_key

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
_SCALAR_KEEPS = L.ARTIFACT | L.CONTENT | L.DERIVED | L.STR | L.MAYBE_NONE | L.OTHER
_CONTAINER_DROPS = L.RESULT | L.SAFE_STR
_UNKNOWN = L.OTHER | L.MAYBE_NONE  # labels that say nothing of where a value is from
# Statements with nothing to interpret: only the checks look at them.
_INERT = frozenset(
    {ast.Import, ast.ImportFrom, ast.Pass, ast.Global, ast.Nonlocal, ast.Break, ast.Continue}
)
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
# A name `isinstance` proves something of: what it keeps of its labels, and for a test of
# result types (which narrows where it is false) their instance bits.
Narrowing = tuple[str, int, int | None]
_EXITS = (ast.Return, ast.Raise)


def always_exits(body: Sequence[ast.stmt]) -> bool:
    """Does `body` always end in a `return` or a `raise` (through an if/else both so)?"""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ast.If):
        return always_exits(last.body) and always_exits(last.orelse)
    return isinstance(last, _EXITS)


class Statements(FlowBase):
    """`Flow`'s statements, one method per kind (`_STATEMENTS`), and the bindings."""

    def block(self, body: Iterable[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        self.work += 1
        kind = type(node)
        if kind in _INERT:
            self._dispatch(node)
            return
        interpret = _STATEMENTS.get(kind)
        if interpret is not None:
            interpret(self, node)
        if kind not in _DEFINITIONS:  # a definition runs its checks before its body
            self._dispatch(node)

    def _expression(self, node: ast.Expr) -> None:
        self.expr(node.value)

    def _assign(self, node: ast.Assign) -> None:
        labels = self.expr(node.value)
        for target in node.targets:
            self.bind(target, labels, node.value)

    def _annotated(self, node: ast.AnnAssign) -> None:
        target, value = node.target, node.value
        declared = self.facts.annotation(node.annotation)
        labels = self.expr(value) if value is not None else L.NOTHING
        if declared & DECLARED and isinstance(target, ast.Name):
            scope = self.ctx.scope
            if scope.declared is None:
                scope.declared = {}
            scope.declared[target.id] = declared & (DECLARED | L.MAYBE_NONE)
        if value is not None or declared:
            self.bind(target, declared or labels, value)

    def _augmented(self, node: ast.AugAssign) -> None:
        env = self.ctx.scope.env
        target = node.target
        current = (
            self.expr(target) if not isinstance(target, ast.Name) else env.get(target.id, L.OTHER)
        )
        self.ctx.remember(target, current)
        labels = self.expr(node.value)
        combined = current
        if isinstance(node.op, ast.Add):
            # `parts += [result]` holds it; `text += str(result)` is computed from it
            kept = labels & (L.RESULTS | L.MAPPING | L.ARTIFACT | L.TOOLS)
            combined = current | kept | L.derived(labels)
        if isinstance(target, ast.Name):
            env.set(target.id, combined)

    def _return(self, node: ast.Return) -> None:
        labels = self.expr(node.value) if node.value is not None else L.OTHER
        self._returns = join_bound(self._returns, labels)

    def _if(self, node: ast.If) -> None:
        self.expr(node.test)
        narrowed, positive = self._narrowing(node.test)
        then, other = (narrowed, ()) if positive else ((), narrowed)
        # After `if ...: return`, only the other branch flows on (not where a handler, a
        # `finally` or a context manager would see the exit: `_guarded`).
        exits = (False, False)
        if not self._guarded:
            exits = (always_exits(node.body), always_exits(node.orelse))

        def body() -> None:
            self.prove_results(node.test)
            self._narrowed(then, node.body)

        self.branches(
            [body, partial(self._narrowed, other, node.orelse)],
            exits if exits != (True, True) else (False, False),
        )

    def _while(self, node: ast.While) -> None:
        def rerun() -> None:
            self.expr(node.test)
            self.block(node.body)

        self.loop(node, rerun, node.orelse)

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        target, iterable, body = node.target, node.iter, node.body
        labels = self.expr(iterable)

        def iterate() -> None:
            self.bind_iteration(target, labels, iterable)
            self.block(body)

        self.loop(node, iterate, node.orelse)

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            labels = self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, labels, item.context_expr)
        self._guarded += 1  # `__exit__` may swallow a raise: the code after it goes on
        try:
            self.block(node.body)
        finally:
            self._guarded -= 1

    def _try(self, node: ast.Try | ast.TryStar) -> None:
        env = self.ctx.scope.env
        env.push()
        final = 1 if node.finalbody else 0  # every exit of the try flows through it
        self._guarded += 1 if node.handlers else final
        if node.handlers:
            env.watch()
        try:
            self.block(node.body)
        finally:
            self._guarded -= 1 if node.handlers else final
            seen = env.unwatch() if node.handlers else {}
        self._guarded += final
        try:
            self.block(node.orelse)
            before = env.keep()  # a handler may start from any point of the body
            for handler in node.handlers:
                for name, old in before.items():
                    env.set(name, join_bound(env.lookup(name), old))
                for name, labels in seen.items():
                    env.set(name, join_bound(env.lookup(name), labels))
                if handler.type is not None:
                    self.expr(handler.type)
                if handler.name:
                    env.set(handler.name, L.OTHER)
                self.block(handler.body)
        finally:
            self._guarded -= final
        self.block(node.finalbody)

    def _match(self, node: ast.Match) -> None:
        labels = self.expr(node.subject)
        runs = [partial(self._case, case, labels) for case in node.cases]
        self.branches([*runs, lambda: None])

    def _def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        env = self.ctx.scope.env
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

    def _class(self, node: ast.ClassDef) -> None:
        env = self.ctx.scope.env
        for base in node.bases:
            self.expr(base)
        self._dispatch(node)
        env.delete(node.name)
        self.klass(node)

    def _delete(self, node: ast.Delete) -> None:
        env = self.ctx.scope.env
        for target in node.targets:
            if isinstance(target, ast.Name):
                env.delete(target.id)
            else:
                self.expr(target)

    def _raise(self, node: ast.Raise) -> None:
        for part in (node.exc, node.cause):
            if part is not None:
                self.expr(part)

    def _assert(self, node: ast.Assert) -> None:
        self.expr(node.test)
        if node.msg is not None:
            self.expr(node.msg)

    def _narrowing(self, test: ast.expr) -> tuple[tuple[Narrowing, ...], bool]:
        """Names that `test` proves are not a single result (`isinstance(x, str)` where
        true, `isinstance(x, ToolResult)` where false; also under `and`, `or`, `not`),
        each with what it keeps, and whether that holds in the body (else the orelse)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            names, positive = self._narrowing(test.operand)
            return names, not positive
        if isinstance(test, ast.BoolOp):
            # `a and b` true: both are; `a or b` false: neither is
            holds = isinstance(test.op, ast.And)
            found: list[Narrowing] = []
            for value in test.values:
                names, positive = self._narrowing(value)
                if positive == holds:
                    found.extend(names)
            return tuple(found), holds
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
                return ((test.args[0].id, mask, None),), True
            tested = self._result_kinds(parts)
            if tested is not None:  # where it is false, it is none of those result types
                return ((test.args[0].id, ~(L.RESULT | tested), tested),), False
        return (), True

    def _result_kinds(self, kinds: Sequence[ast.expr]) -> int | None:
        """The instance bits of the result types among `kinds`, or None if there is none."""
        facts = self.facts
        tested = L.NOTHING
        found = False
        for kind in kinds:
            dotted = self.ctx.qualify(kind)
            if dotted is not None and facts.is_result_class(dotted):
                found = True
                tested |= facts.result_type_bits(dotted)
        return tested if found else None

    def _narrow_mask(self, kinds: Sequence[ast.expr]) -> int | None:
        """What a value proved to be of one of `kinds` keeps of its labels (a number or a
        string holds no result; a builtin container is not one), or None: not known."""
        names = [self.ctx.qualify(kind) for kind in kinds]
        if not names or not all(n in _NOT_RESULTS for n in names):
            return None
        if all(n in SCALARS for n in names):
            return _SCALAR_KEEPS
        return ~_CONTAINER_DROPS

    def _narrowed(self, names: tuple[Narrowing, ...], body: list[ast.stmt]) -> None:
        env = self.ctx.scope.env
        every = self.facts.result_bits
        for name, mask, tested in names:
            labels = env.lookup(name)
            if labels == UNBOUND or not labels & ~mask:
                continue
            if tested is not None:
                # not a ToolResult may still be another result type: only when every
                # type it may be (every type, if that is not known) was tested
                types = labels & every
                if (types or every) & ~tested:
                    continue
            labels &= mask
            if not labels & L.WHOLE:
                labels &= ~L.SAFE_STR
            env.set(name, labels or L.OTHER)
        self.block(body)

    def _case(self, case: ast.match_case, subject: int) -> None:
        self.bind_pattern(case.pattern, subject)
        if case.guard is not None:
            self.expr(case.guard)
        self.block(case.body)

    def branches(
        self,
        bodies: list[list[ast.stmt] | Callable[[], None]],
        exits: Sequence[bool] = (),
    ) -> None:
        """Run each body from the same state and join them, touching only what they write;
        a body that `exits` (always returns or raises) joins nothing."""
        env = self.ctx.scope.env
        outcomes = []
        starts: dict[str, int] = {}
        for at, body in enumerate(bodies):
            env.push()
            if callable(body):
                body()
            else:
                self.block(body)
            replaced, written = env.pop()
            starts.update(replaced)
            if not (at < len(exits) and exits[at]):
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
            key = attribute_key(target)
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


# Statement type → how it is interpreted; a type not listed has nothing to interpret.
_STATEMENTS: dict[type[ast.stmt], Callable[[Statements, Any], None]] = {
    ast.Expr: Statements._expression,
    ast.Assign: Statements._assign,
    ast.AnnAssign: Statements._annotated,
    ast.AugAssign: Statements._augmented,
    ast.Return: Statements._return,
    ast.If: Statements._if,
    ast.While: Statements._while,
    ast.For: Statements._for,
    ast.AsyncFor: Statements._for,
    ast.With: Statements._with,
    ast.AsyncWith: Statements._with,
    ast.Try: Statements._try,
    ast.TryStar: Statements._try,
    ast.Match: Statements._match,
    ast.FunctionDef: Statements._def,
    ast.AsyncFunctionDef: Statements._def,
    ast.ClassDef: Statements._class,
    ast.Delete: Statements._delete,
    ast.Raise: Statements._raise,
    ast.Assert: Statements._assert,
}
