"""The imports a migration made unused (`@tool` once it became `@result_tool`), removed.

Only an import that was in use before the rewrite and is not after it: one the module
already left unused is the user's business, and LibCST's `GatherUnusedImportsVisitor`
counts a name in `__all__` or in a string annotation as a use. The removal itself is
LibCST's `RemoveImportsVisitor`, which keeps an import still in use and drops an
emptied `from ... import` line whole. A package's `__init__.py` is left as it is: its
imports are often re-exports that other modules use.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from libcst.helpers import get_absolute_module_from_package

if TYPE_CHECKING:
    import libcst as cst

    from toolwire.lint.codemods.splice import Spliced

__all__ = ["drop_unused_imports"]

Key = tuple[str, str | None, str | None]  # as `import_removal.Key`


def drop_unused_imports(
    before: cst.Module,
    text: str,
    after: cst.Module,
    code: str,
    path: str,
    module: str | None,
    old_tree: ast.Module | None = None,
    spliced: Spliced | None = None,
) -> cst.Module:
    """`after` (whose source is `code`, made by parts as `spliced`) without the imports it
    no longer uses that `before` (whose source is `text`, parsed by `ast` as `old_tree`)
    used."""
    if after is before or path.endswith("__init__.py"):
        return after
    old_tree = ast.parse(text) if old_tree is None else old_tree
    if spliced is not None and not _may_lose_uses(old_tree, text, spliced):
        return after
    new_tree = ast.parse(code)
    fewer = _fewer_uses(old_tree, text, new_tree, code)
    if not fewer:
        return after  # the common case, without the metadata LibCST's visitors need
    package = module.rpartition(".")[0] if module else None
    made = _plainly_unused(old_tree, new_tree, code, fewer, package)
    if made is not None and not made:
        return after
    from toolwire.lint.codemods.import_removal import remove

    return remove(before, after, path, module, made)


_WORD = re.compile(r"[A-Za-z_]\w*")


def _fewer_uses(tree: ast.Module, before: str, new_tree: ast.Module, after: str) -> set[str]:
    """The names the module imports that are written fewer times after the rewrite outside
    import statements: only these can have lost their last use. A text count, linear in
    the module; the words of imports do not count, since an added import may write the
    same word (`from toolwire.adapters.smolagents import tool as result_tool`)."""
    imported = _imported_names(tree)
    if not imported:
        return set()
    old = Counter(w for w in _WORD.findall(before) if w in imported) - _import_words(tree)
    new = Counter(w for w in _WORD.findall(after) if w in imported) - _import_words(new_tree)
    return {name for name, count in old.items() if new[name] < count}


def _may_lose_uses(tree: ast.Module, text: str, spliced: Spliced) -> bool:
    """Whether `_fewer_uses` may find a name, counted in the replaced parts alone.

    The text outside them is the same before and after, so a name is written fewer times
    outside imports after exactly when it is in the parts. That holds where every import
    word is a word of the text as `_WORD` finds it: in ASCII text (`ast` folds some other
    identifiers to NFKC). Otherwise, or when a part does not parse alone: True."""
    if not (text.isascii() and all(part.isascii() for part in spliced.new)):
        return True
    imported = _imported_names(tree)
    old = _part_words(spliced.old, imported)
    if old is None:
        return True
    if not old:
        return False
    new = _part_words(spliced.new, imported)
    return new is None or any(new[name] < count for name, count in old.items())


def _part_words(parts: tuple[str, ...], imported: set[str]) -> Counter[str] | None:
    """The words of `parts` that name an import, outside import statements; None when a
    part that holds an import does not parse alone."""
    words = Counter(w for part in parts for w in _WORD.findall(part) if w in imported)
    if not words:
        return words
    for part in parts:
        if "import" not in part:
            continue
        tree = _parse_part(part)
        if tree is None:
            return None
        words -= _import_words(tree)
    return words


def _parse_part(part: str) -> ast.Module | None:
    """A part's statements: a block of the module's own, or of an indented block."""
    for code in (part, "if 1:\n" + part):
        try:
            return ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return None


def _import_words(tree: ast.Module) -> Counter[str]:
    """The words of the module's import statements (their modules and names), counted."""
    return Counter(
        word
        for node in _imports(tree.body)
        for text in (getattr(node, "module", None) or "", *_alias_words(node))
        for word in text.split(".")
    )


def _imported_names(tree: ast.Module) -> set[str]:
    """The names the module's import statements bind (at any depth)."""
    names: set[str] = set()
    for node in _imports(tree.body):
        for alias in node.names:
            names.add((alias.asname or alias.name).partition(".")[0])
    names.discard("*")
    return names


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


# The statements that hold no block, by exact type: most of a module, passed at once.
_LEAVES = frozenset(
    (
        ast.Expr,
        ast.Assign,
        ast.AnnAssign,
        ast.AugAssign,
        ast.Return,
        ast.Pass,
        ast.Raise,
        ast.Assert,
        ast.Delete,
        ast.Global,
        ast.Nonlocal,
        ast.Break,
        ast.Continue,
    )
)


def _imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of `body` at any depth; only statements are walked (an
    import is never inside an expression), which costs a fraction of `ast.walk`."""
    stack = [body]
    leaves = _LEAVES
    while stack:
        for node in stack.pop():
            kind = type(node)
            if kind in leaves:
                continue
            if kind is ast.Import or kind is ast.ImportFrom:
                yield node  # type: ignore[misc]
                continue
            for name in _BLOCKS:
                block = getattr(node, name, None)
                if block:
                    stack.append(block)


def _plainly_unused(
    before: ast.Module, after: ast.Module, code: str, fewer: set[str], package: str | None
) -> set[Key] | None:
    """What `_unused` would find the rewrite made unused, when the text alone proves it
    (LibCST's scope analysis costs some 0.1 s a file). Each name that lost uses must be
    bound once, by a module-level `from m import name [as alias]` or `import name [as
    alias]`: it stays in use if it is still read as a plain name after, and was made
    unused if it was read before and is written nowhere but in imports after. Anything
    else is None: `_unused` decides."""
    old, new = _Facts(before, package), _Facts(after, package)
    in_imports = _import_words(after)
    words = Counter(w for w in _WORD.findall(code) if w in fewer)
    made: set[Key] = set()
    for name in fewer:
        if not (old.plain(name) and new.plain(name)):
            return None
        if name in new.read:
            continue
        if name not in old.read or words[name] != in_imports[name]:
            return None
        made.add(old.keys[name])
    return made


class _Facts:
    """The plain module-level imports of a module, what it binds, and the names it reads."""

    def __init__(self, tree: ast.Module, package: str | None) -> None:
        self.keys: dict[str, Key] = {}
        for statement in _module_level(tree.body):
            for key, bound in _keys(statement, package):
                self.keys.setdefault(bound, key)
        self.bindings = Counter(_bound_names(tree))
        self.read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and _loads(n)}

    def plain(self, name: str) -> bool:
        return name in self.keys and self.bindings[name] == 1


def _loads(node: ast.Name) -> bool:
    return isinstance(node.ctx, ast.Load)


def _alias_words(node: ast.Import | ast.ImportFrom) -> list[str]:
    return [w for alias in node.names for w in (alias.name, alias.asname or "")]


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.Try | ast.TryStar | ast.With | ast.For | ast.While):
            for block in (statement.body, statement.orelse if hasattr(statement, "orelse") else []):
                yield from _module_level(block)
            for handler in getattr(statement, "handlers", ()):
                yield from _module_level(handler.body)
            yield from _module_level(getattr(statement, "finalbody", []))


def _keys(statement: ast.stmt, package: str | None) -> Iterator[tuple[Key, str]]:
    """(the key `_unused` gives an import, the name it binds), for plain names only."""
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if "." not in alias.name:
                yield (alias.name, None, alias.asname), alias.asname or alias.name
    elif isinstance(statement, ast.ImportFrom) and statement.module not in (None, "__future__"):
        # LibCST's visitor skips `from . import x` and `__future__` imports
        source = get_absolute_module_from_package(package, statement.module, statement.level)
        if source is None:
            return
        for alias in statement.names:
            if alias.name != "*":
                yield (source, alias.name, alias.asname), alias.asname or alias.name


def _bound_names(tree: ast.Module) -> Iterator[str]:
    """Every name the module binds, anywhere, once per binding."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield from ((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name
        elif isinstance(node, ast.Global | ast.Nonlocal):
            yield from node.names
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            yield node.name
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest
