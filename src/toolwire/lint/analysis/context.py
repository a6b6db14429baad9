"""What the value flow keeps while it interprets a module, and what a check sees of it:
the environment of names to labels (`Env`), the scope being interpreted (`Scope`) and
the check's view (`Context`)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.facts import ModuleFacts
from toolwire.lint.analysis.names import ClassInfo
from toolwire.lint.findings import Finding

Visitor = Callable[[ast.AST, "Context"], None]
# Node type → the bound visit methods of the enabled checks.
Visitors = dict[type[ast.AST], list[Visitor]]
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
# A local callable: (summary key, its definition), a `partial(...)` call to expand, or the
# labels a call returns (a parameter annotated `Callable[..., ToolResult]`).
Callee = tuple[str, Definition] | ast.Call | int
UNBOUND = -1  # a name bound on no path (or deleted), hiding an enclosing binding


def join_bound(a: int, b: int) -> int:
    """`labels.join`, where UNBOUND (no path binds the name) adds nothing."""
    if a == UNBOUND:
        return b
    return a if b == UNBOUND else L.join(a, b)


class Env:
    """Names (and `name.attr` keys) to labels, over the environment of the enclosing scope.

    `push()` opens an undo frame: every later write first records the value it replaces,
    so `pop()` can give the frame's writes back and restore the state at `push()`.
    """

    __slots__ = ("_frames", "_seen", "callables", "parent", "values")

    def __init__(self, parent: Env | None = None) -> None:
        self.values: dict[str, int] = {}
        self.parent = parent
        self._frames: list[dict[str, int]] = []
        # per try body being interpreted: every value each name took in it (`watch`)
        self._seen: list[dict[str, int]] = []
        # names bound to a lambda, a nested def or a `functools.partial(...)` call
        self.callables: dict[str, Callee] | None = None

    def callee(self, name: str) -> Callee | None:
        """What a call of `name` runs, when it is bound (in the scope that binds it) to a
        lambda, a nested def, a partial or a parameter annotated as a callable."""
        env: Env | None = self
        while env is not None:
            if name in env.values:
                return env.callables.get(name) if env.callables else None
            env = env.parent
        return None

    def bind_callee(self, name: str, callee: Callee | None) -> None:
        if callee is not None:
            if self.callables is None:
                self.callables = {}
            self.callables[name] = callee
        elif self.callables:
            self.callables.pop(name, None)

    def lookup(self, name: str) -> int:
        """The labels of `name`, or `UNBOUND`."""
        env: Env | None = self
        while env is not None:
            found = env.values.get(name)
            if found is not None:
                return found
            env = env.parent
        return UNBOUND

    def get(self, name: str, default: int = L.OTHER) -> int:
        found = self.lookup(name)
        return default if found == UNBOUND else found

    def __contains__(self, name: str) -> bool:
        return self.lookup(name) != UNBOUND

    def set(self, name: str, labels: int) -> None:
        if self._frames:
            frame = self._frames[-1]
            if name not in frame:
                frame[name] = self.lookup(name)
            if self._seen:  # a watched try body is always inside a frame (`_try`)
                seen = self._seen[-1]
                seen[name] = join_bound(seen.get(name, UNBOUND), labels)
        self.values[name] = labels

    def delete(self, name: str) -> None:
        if name in self:
            self.set(name, UNBOUND)

    def push(self) -> None:
        self._frames.append({})

    def pop(self) -> tuple[dict[str, int], dict[str, int]]:
        """Undo the writes since `push()`; return the values they replaced and had set."""
        frame = self._frames.pop()
        values = self.values
        written = {name: values[name] for name in frame}
        values.update(frame)
        return frame, written

    def watch(self) -> None:
        """Start joining every value a name takes (a try body: its handlers may start at
        any point of it)."""
        self._seen.append({})

    def unwatch(self) -> dict[str, int]:
        """Stop `watch()`; return the join of the values each name took, also given to an
        enclosing watch (its body holds these points too)."""
        seen = self._seen.pop()
        if self._seen:
            outer = self._seen[-1]
            for name, labels in seen.items():
                outer[name] = join_bound(outer.get(name, UNBOUND), labels)
        return seen

    def keep(self) -> dict[str, int]:
        """Close the frame, keeping its writes; return the values they replaced."""
        frame = self._frames.pop()
        if self._frames:
            outer = self._frames[-1]
            for name, old in frame.items():
                outer.setdefault(name, old)
        return frame


class Scope:
    """The function (or module, or class body) being interpreted."""

    # A plain class: a dataclass compiles its methods from text at every start-up.
    def __init__(
        self,
        node: ast.AST,
        qualname: str,
        cls: ClassInfo | None = None,  # the class whose method this is
        env: Env | None = None,
    ) -> None:
        self.node = node
        self.qualname = qualname
        self.cls = cls
        self.env = Env() if env is None else env
        # names whose values the function also puts in a run-only slot (`_seeds`)
        self.seeds: frozenset[str] = frozenset()
        # names annotated in this scope (`x: ToolResult | None = None`, a parameter): a
        # later binding to a value of unknown origin keeps the declared labels
        self.declared: dict[str, int] | None = None


class Context:
    """What a check sees: the current node's parts, their labels, and the module facts."""

    def __init__(self, facts: ModuleFacts, lines: Sequence[str], path: str) -> None:
        self.facts = facts
        self.lines = lines
        self.path = path
        self.findings: dict[tuple[int, int, str], Finding] = {}
        self.scope = Scope(node=ast.Module(body=[], type_ignores=[]), qualname=facts.module or "")
        self._labels: dict[int, int] = {}
        self._qualified: dict[int, str | None] = {}

    # -- for checks ---------------------------------------------------------------------------

    def labels(self, node: ast.expr) -> int:
        """Labels of an expression already interpreted in this statement."""
        found = self._labels.get(id(node))
        return L.OTHER if found is None else found

    def remember(self, node: ast.expr, labels: int) -> None:
        self._labels[id(node)] = labels

    def qualify(self, expr: ast.expr) -> str | None:
        """Dotted name of a reference, unless a local variable shadows it."""
        root = expr
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.scope.env:
            return None
        key = id(expr)
        try:
            return self._qualified[key]
        except KeyError:
            found = self._qualified[key] = self.facts.names.qualify(expr)
            return found

    def report(self, code: str, node: ast.AST, message: str, fix: str | None = None) -> None:
        line = getattr(node, "lineno", 1)
        col = self._column(line, getattr(node, "col_offset", 0))
        end_line = getattr(node, "end_lineno", None) or line
        end_col = self._column(end_line, getattr(node, "end_col_offset", None) or 0)
        finding = Finding(self.path, line, col + 1, code, message, end_line, end_col + 1, fix)
        self.findings[(line, col, code)] = finding

    def _column(self, line: int, byte_offset: int) -> int:
        if not 0 < line <= len(self.lines):
            return byte_offset
        text = self.lines[line - 1]
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))

    def describe(self, node: ast.expr) -> str:
        """Short source text of an expression, for messages."""
        try:
            text = ast.unparse(node)
        except (ValueError, RecursionError):  # pragma: no cover - unparse of parsed code
            return "the value"
        return text if len(text) <= 40 else text[:37] + "..."
