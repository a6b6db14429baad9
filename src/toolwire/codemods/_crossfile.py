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
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

__all__ = ["FAMILY", "ClassIndex", "CrossFile", "Member", "family_holds", "index_module"]

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


FAMILY = "its family of "  # how a family hold's reason begins
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
    """`Class.method` -> (the skip that holds it, why) for each migrating member of a
    family with a skip.

    A family is one method name over the classes of the run linked by inheritance (a
    declaration, its overrides, the implementations below them; a `.pyi` and its `.py`
    share their dotted name), plus every class with that method under a `Protocol` that
    declares it (any of them may stand behind the protocol). A caller through any member
    may reach any other, so the family is migrated all together or not at all.
    """
    index = CrossFile(classes)
    by_method: dict[str, dict[str, list[Member]]] = {}
    for member in members:
        owner, _, method = member.key.rpartition(".")
        by_method.setdefault(method, {}).setdefault(owner, []).append(member)
    held: dict[str, tuple[str, str]] = {}
    for method, owners in by_method.items():
        if not any(m.own for ms in owners.values() for m in ms):
            continue
        parent = {owner: owner for owner in owners}
        find = functools.partial(_find, parent)

        protocols = [o for o in owners if _PROTOCOLS.intersection(classes.get(o, ()))]
        for owner in owners:
            for ancestor in index.ancestors(owner):
                if ancestor in parent:
                    parent[find(owner)] = find(ancestor)
            for protocol in protocols:
                parent[find(owner)] = find(protocol)
        families: dict[str, list[Member]] = {}
        for owner, found in owners.items():
            families.setdefault(find(owner), []).extend(found)
        for family in families.values():
            roots = sorted((m for m in family if m.own), key=lambda m: (m.path, m.line))
            if not roots:
                continue
            root = roots[0]
            why = (
                f"{FAMILY}`{method}` (declaration, overrides, stub) is migrated all "
                f"together or not at all, and `{root.name}` ({root.path}:{root.line}) is "
                f"skipped: {root.reason}"
            )
            for member in family:
                if member.status == "migrate":
                    held.setdefault(member.key, (f"{root.path}:{root.key}", why))
    return held


def _find(parent: dict[str, str], owner: str) -> str:
    while parent[owner] != owner:
        parent[owner] = parent[parent[owner]]
        owner = parent[owner]
    return owner


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
