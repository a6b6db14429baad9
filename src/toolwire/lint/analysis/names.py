"""What a module's names refer to (`Names`), its classes (`ClassInfo`), a walk over its
statements, and the matchers of dotted names (re-exports included)."""

from __future__ import annotations

import ast
import functools
import os
import weakref
from collections.abc import Iterator
from typing import Protocol


def is_package(path: str) -> bool:
    """A package's `__init__` module (its relative imports start at the package itself)."""
    return os.path.basename(path) in ("__init__.py", "__init__.pyi")


def relative_parts(module: str, package: bool) -> list[str]:
    """The parts a relative import's level counts up from: `from . import x` in module
    `a.b` is `a.x`, in package `a.b`'s `__init__` it is `a.b.x`."""
    parts = module.split(".") if module else []
    return [*parts, "__init__"] if package else parts


class _Members(Protocol):
    def members(self, info: ClassInfo) -> None: ...


class ClassInfo:
    """A class of the module: its node, bases and what the checks learn of its members."""

    # A plain class: a dataclass compiles its methods from text at every start-up.
    def __init__(
        self,
        name: str,
        qualname: str,
        node: ast.ClassDef,
        bases: list[str | None],
        *,
        _attributes: dict[str, int] | None = None,
        _returns: dict[str, int] | None = None,
    ) -> None:
        self.name = name
        self.qualname = qualname
        self.node = node
        self.bases = bases
        self.is_tool = False
        self.index = 0  # its instance bit (`labels.instance`)
        # what the methods assign to `self.<name>`, as the flow finds it
        self.assigned: dict[str, int] = {}
        # Its annotated fields and its methods' declared returns: read from its body when
        # the flow first asks (most classes of a module are never asked about).
        # (a weak reference: a cycle through the facts would keep every parsed tree alive
        # until the collector runs, and a run over many files would pay for it)
        self.facts: weakref.ReferenceType[_Members] | None = None
        self._attributes = {} if _attributes is None else _attributes
        self._returns = {} if _returns is None else _returns

    @property
    def attributes(self) -> dict[str, int]:
        self._load()
        return self._attributes

    @property
    def returns(self) -> dict[str, int]:
        self._load()
        return self._returns

    @classmethod
    def imported(
        cls, qualname: str, attributes: dict[str, int], returns: dict[str, int]
    ) -> ClassInfo:
        """A class of another module of the run, known by its export."""
        name = qualname.rpartition(".")[2]
        node = ast.ClassDef(name=name, bases=[], keywords=[], body=[], decorator_list=[])
        return cls(name, qualname, node, [], _attributes=attributes, _returns=returns)

    def _load(self) -> None:
        if self.facts is not None:
            facts, self.facts = self.facts(), None
            if facts is not None:
                facts.members(self)


class Names:
    """Resolves local names to dotted names through imports, aliases and local definitions."""

    def __init__(
        self,
        tree: ast.Module,
        module: str | None,
        every: list[ast.stmt] | None = None,
        package: bool = False,
    ) -> None:
        """`package`: the module is a package's `__init__`, whose `.` is the package itself."""
        self.module = module or ""
        self.package = package
        self.aliases: dict[str, str] = {}
        self.local: dict[str, str] = {}
        self.assigned: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                self.local[node.name] = f"{self.module}.{node.name}"
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    self.assigned.update(bound_names(target))
        for found in every if every is not None else statements(tree.body):
            if isinstance(found, ast.Import):
                for alias in found.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        head = alias.name.partition(".")[0]
                        self.aliases[head] = head
            elif isinstance(found, ast.ImportFrom):
                base = self._from_base(found)
                if base is None:
                    continue
                for alias in found.names:
                    if alias.name != "*":
                        self.aliases[alias.asname or alias.name] = f"{base}.{alias.name}".lstrip(
                            "."
                        )

    def _from_base(self, node: ast.ImportFrom) -> str | None:
        if not node.level:
            return node.module or ""
        parts = relative_parts(self.module, self.package)
        if len(parts) < node.level:
            return None
        package = parts[: len(parts) - node.level]
        return ".".join([*package, *([node.module] if node.module else [])])

    def qualify(self, expr: ast.expr) -> str | None:
        """The dotted name an expression refers to, or None when it is not a plain reference."""
        if isinstance(expr, ast.Name):
            name = expr.id
            if name in self.local:
                return self.local[name]
            if name in self.aliases:
                return self.aliases[name]
            if name in self.assigned:
                return None
            return f"builtins.{name}"
        if isinstance(expr, ast.Attribute):
            base = self.qualify(expr.value)
            return f"{base}.{expr.attr}" if base else None
        return None


_BLOCKS: dict[type[ast.AST], tuple[str, ...]] = {
    **dict.fromkeys((ast.If, ast.For, ast.AsyncFor, ast.While), ("body", "orelse")),
    **dict.fromkeys((ast.Try, ast.TryStar), ("body", "orelse", "finalbody", "handlers")),
    **dict.fromkeys(
        (
            ast.With,
            ast.AsyncWith,
            ast.FunctionDef,
            ast.AsyncFunctionDef,
            ast.ClassDef,
            ast.ExceptHandler,
            ast.match_case,
        ),
        ("body",),
    ),
    ast.Match: ("cases",),
}


def statements(body: list[ast.stmt], shallow: frozenset[int] = frozenset()) -> Iterator[ast.stmt]:
    """Every statement in `body`, nested blocks and definitions included, no expressions:
    imports, classes and attribute declarations are statements, and walking only these is
    several times cheaper than `ast.walk`. The blocks in `shallow` (by id) are not entered."""
    stack: list[ast.AST] = list(reversed(body))
    blocks = _BLOCKS
    while stack:
        node = stack.pop()
        names = blocks.get(type(node))
        if names is None or id(node) in shallow:
            yield node  # type: ignore[misc]  # a simple statement, or one not entered
            continue
        if not isinstance(node, ast.ExceptHandler | ast.match_case):
            yield node  # type: ignore[misc]
        for name in names:  # the order the analysis has always used: keep it
            stack.extend(reversed(getattr(node, name)))


def bound_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from bound_names(element)
    elif isinstance(target, ast.Starred):
        yield from bound_names(target.value)


def local_bases(info: ClassInfo) -> Iterator[str]:
    for base in info.node.bases:
        if isinstance(base, ast.Name):
            yield base.id


def module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of the module's block and of its `if`/`try`/`with` blocks."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for name in _BLOCKS.get(type(statement), ()):
            for child in getattr(statement, name):
                if isinstance(child, ast.ExceptHandler | ast.match_case):
                    yield from module_level(child.body)
                else:
                    yield from module_level([child])


Matcher = tuple[frozenset[str], tuple[tuple[str, str], ...]]


def class_matcher(dotted: tuple[str, ...]) -> Matcher:
    """Exact names, plus (package prefix, tail) pairs for re-exports: the tail starts at
    the class (`ToolResult`, `BaseTool._run`), or is the last name of a function, so
    `toolwire.result.ToolResult` matches `toolwire.ToolResult` and
    `langchain_core.tools.base.BaseTool._run` matches `langchain_core.tools.BaseTool._run`."""
    return frozenset(dotted), tuple(_split(name) for name in dotted)


def _split(name: str) -> tuple[str, str]:
    parts = name.split(".")
    at = next((i for i, p in enumerate(parts) if i and p[:1].isupper()), len(parts) - 1)
    return ".".join(parts[:at]) + ".", "." + ".".join(parts[at:])


@functools.lru_cache(maxsize=4096)
def matches(dotted: str, matcher: tuple[frozenset[str], tuple[tuple[str, str], ...]]) -> bool:
    """Cached: the same few names are asked about again and again, in every module."""
    exact, loose = matcher
    if dotted in exact:
        return True
    return any(dotted.startswith(p) and dotted.endswith(s) for p, s in loose)


@functools.lru_cache(maxsize=256)
def one_matcher(name: str) -> Matcher:
    return class_matcher((name,))
