"""What migrate knows across files: the class hierarchy of the run, and pass one's results.

A framework tool often reaches the framework's base through a base of its own in another
module (`class GmailSearch(GmailBaseTool)`), and an adapter base wraps the tool methods
of every subclass, wherever it lives. So before pass one, every file's top-level classes
are indexed with their bases resolved to dotted names (by `ast`, cheaply); pass one then
runs until what each file assumes about the others (which classes carry the adapter,
what an inherited tool method returns, which classes must stay as they are) is what the
others did.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

__all__ = [
    "FAMILY",
    "ClassIndex",
    "CrossFile",
    "Member",
    "family_holds",
    "index_instances",
    "index_module",
    "split_declarations",
]

ClassIndex = Mapping[str, tuple[str, ...]]  # dotted class -> its bases, dotted


@dataclass(frozen=True, slots=True)
class CrossFile:
    """One round's assumptions about the other files of the run."""

    classes: ClassIndex = field(default_factory=dict)
    wired: frozenset[str] = frozenset()  # classes whose tool methods the adapter wraps
    results: Mapping[str, bool] = field(default_factory=dict)  # `Class.method` -> a result
    blocked: Mapping[str, str] = field(default_factory=dict)  # class -> why it stays
    # `Class.method` -> (`path:Class.method` of the skip that holds its family, why)
    held: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    # dotted module-level name -> the framework class it is an instance of
    # (`app.server.mcp` -> `fastmcp.FastMCP`), and -> the dotted name it imports
    instances: Mapping[str, str] = field(default_factory=dict)
    reexports: Mapping[str, str] = field(default_factory=dict)

    def ancestors(self, name: str) -> Iterator[str]:
        """The dotted ancestors of a class the index knows, breadth first, each once."""
        seen = {name}
        queue = list(self.classes.get(name, ()))
        while queue:
            current = queue.pop(0)
            if current in seen:
                continue
            seen.add(current)
            yield current
            queue += self.classes.get(current, ())

    def derives(self, name: str, bases: frozenset[str]) -> bool:
        return name in bases or any(a in bases for a in self.ancestors(name))

    def instance_of(self, name: str) -> str | None:
        """The framework class whose instance the dotted module-level `name` is bound to
        (through re-exports: `from app.server import mcp` in `app/__init__.py`), or None
        when the run does not know it."""
        for _ in range(8):  # a chain of re-exports; a cycle ends here
            if name in self.instances:
                return self.instances[name]
            if name not in self.reexports:
                return None
            name = self.reexports[name]
        return None


FAMILY = "the declaration of "  # how a declaration hold's reason begins
_PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})


@dataclass(frozen=True, slots=True)
class Member:
    """A class tool method pass one planned, for the all-or-none rule of its family."""

    key: str  # dotted `module.Class.method`
    path: str
    line: int
    status: str  # migrate | already | skip
    reason: str = ""
    own: bool = False  # a skip of its own: not pending, not a family hold

    @property
    def name(self) -> str:
        owner, _, method = self.key.rpartition(".")
        return f"{owner.rpartition('.')[2]}.{method}"


def family_holds(members: Iterable[Member], classes: ClassIndex) -> dict[str, tuple[str, str]]:
    """`Class.method` -> (the skip that holds it, why) for each migrating declaration of
    a skipped implementation.

    A declaration is held when a class of the run below it (by inheritance; any class
    with the method, for a `Protocol`) skips its method: a caller through the
    declaration may reach that implementation, which still returns a str. A `.pyi` and
    its `.py` share their dotted name, so a stub entry and its implementation hold each
    other. The implementations that can be migrated still are.
    """
    index = CrossFile(classes)
    by_method: dict[str, dict[str, list[Member]]] = {}
    for member in members:
        owner, _, method = member.key.rpartition(".")
        by_method.setdefault(method, {}).setdefault(owner, []).append(member)
    held: dict[str, tuple[str, str]] = {}
    for method, owners in by_method.items():
        skips = sorted(
            ((o, m) for o, ms in owners.items() for m in ms if m.own),
            key=lambda om: (om[1].path, om[1].line),
        )
        if not skips:
            continue
        for owner, found in owners.items():
            protocol = bool(_PROTOCOLS.intersection(classes.get(owner, ())))
            for skip_owner, root in skips:
                if not (skip_owner == owner or protocol or owner in index.ancestors(skip_owner)):
                    continue
                why = (
                    f"{FAMILY}`{method}` is migrated only with every implementation the run "
                    f"sees, and `{root.name}` ({root.path}:{root.line}) is skipped: "
                    f"{root.reason}"
                )
                for member in found:
                    if member.status == "migrate":
                        held.setdefault(member.key, (f"{root.path}:{root.key}", why))
                break
    return held


def split_declarations(members: Iterable[Member], classes: ClassIndex) -> dict[str, str]:
    """Dotted class -> what a call of its held declarations may now return, for each held
    declaration with a migrated implementation below it: such a call gets a ToolResult
    from one implementation and a str from another."""
    index = CrossFile(classes)
    every = list(members)
    out: dict[str, list[str]] = {}
    for held in every:
        if held.status != "skip" or held.own or not held.reason.startswith(FAMILY):
            continue
        owner, _, method = held.key.rpartition(".")
        protocol = bool(_PROTOCOLS.intersection(classes.get(owner, ())))
        below = [
            m
            for m in every
            if m.key.rpartition(".")[2] == method
            and m.key != held.key
            and (protocol or owner in index.ancestors(m.key.rpartition(".")[0]))
        ]
        if not any(m.status == "migrate" for m in below):
            continue
        skipped = sorted({m.name for m in below if m.own})
        if skipped:
            strs = ", ".join(f"`{n}`" for n in skipped)
            out.setdefault(owner, []).append(
                f"`{held.name}` now returns a ToolResult from the migrated implementations "
                f"and a str from {strs}"
            )
    return {owner: "; ".join(texts) for owner, texts in out.items()}


def index_module(source: bytes, module: str, is_package: bool) -> dict[str, tuple[str, ...]]:
    """The top-level classes of a module and their bases, as dotted names."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    imports: dict[str, str] = {}
    classes: list[ast.ClassDef] = []
    for statement in _top(tree.body):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    imports[alias.asname] = alias.name
                else:
                    head = alias.name.partition(".")[0]
                    imports[head] = head
        elif isinstance(statement, ast.ImportFrom):
            base = _from_base(statement, module, is_package)
            if base is None:
                continue
            for alias in statement.names:
                imports[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(statement, ast.ClassDef):
            classes.append(statement)
    local = {c.name for c in classes}
    found: dict[str, tuple[str, ...]] = {}
    for cls in classes:
        bases = []
        for expr in cls.bases:
            name = _dotted(expr.value if isinstance(expr, ast.Subscript) else expr)
            if name is None:
                continue
            head, _, rest = name.partition(".")
            if head in local and not rest:
                bases.append(f"{module}.{head}")
            elif head in imports:
                bases.append(f"{imports[head]}.{rest}" if rest else imports[head])
            else:
                bases.append(name)
        found[f"{module}.{cls.name}"] = tuple(bases)
    return found


def index_instances(
    source: bytes, module: str, is_package: bool, classes: frozenset[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """The module-level names bound to an instance of one of `classes` (`mcp =
    FastMCP(...)`, `mcp: FastMCP = ...`), and those bound by `from m import n` (a
    re-export, maybe of one), as dotted names. A name bound twice to different things is
    left out."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}, {}
    imports: dict[str, str] = {}
    bound: dict[str, str | None] = {}

    def bind(name: str, target: str | None) -> None:
        bound[name] = target if bound.get(name, target) == target else None

    def resolve(expr: ast.expr) -> str | None:
        name = _dotted(expr)
        head, _, rest = (name or "").partition(".")
        if head not in imports:
            return None
        return f"{imports[head]}.{rest}" if rest else imports[head]

    for statement in _top(tree.body):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                head = alias.name.partition(".")[0]
                imports[alias.asname or head] = alias.name if alias.asname else head
        elif isinstance(statement, ast.ImportFrom):
            base = _from_base(statement, module, is_package)
            for alias in statement.names if base is not None else ():
                imports[alias.asname or alias.name] = f"{base}.{alias.name}"
                bind(alias.asname or alias.name, f"import:{base}.{alias.name}")
        elif isinstance(statement, ast.Assign):
            value = statement.value
            target = resolve(value.func) if isinstance(value, ast.Call) else None
            for assigned in statement.targets:
                for node in ast.walk(assigned):
                    if isinstance(node, ast.Name):
                        bind(node.id, target if target in classes else None)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            annotation = resolve(statement.annotation)
            bind(statement.target.id, annotation if annotation in classes else None)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bind(statement.name, None)
    found = {f"{module}.{name}": target for name, target in bound.items() if target is not None}
    instances = {k: v for k, v in found.items() if not v.startswith("import:")}
    reexports = {k: v.removeprefix("import:") for k, v in found.items() if k not in instances}
    return instances, reexports


def _top(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.Try):
            yield from _top(statement.body)
            yield from _top(statement.orelse)
            if isinstance(statement, ast.Try):
                for handler in statement.handlers:
                    yield from _top(handler.body)


def _from_base(node: ast.ImportFrom, module: str, is_package: bool) -> str | None:
    if not node.level:
        return node.module
    parts = module.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    if keep < 0:
        return None
    return ".".join([*parts[:keep], *([node.module] if node.module else [])]) or None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None
