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
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, cast

import libcst as cst
from libcst import MetadataDependent
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import GatherUnusedImportsVisitor, RemoveImportsVisitor
from libcst.helpers import (
    get_absolute_module_from_package,
    get_absolute_module_from_package_for_import,
)
from libcst.metadata import MetadataWrapper

__all__ = ["drop_unused_imports"]

Key = tuple[str, str | None, str | None]  # (module, name or None, alias or None)


def drop_unused_imports(
    before: cst.Module,
    text: str,
    after: cst.Module,
    code: str,
    path: str,
    module: str | None,
    old_tree: ast.Module | None = None,
) -> cst.Module:
    """`after` (whose source is `code`) without the imports it no longer uses that
    `before` (whose source is `text`, parsed by `ast` as `old_tree`) used."""
    if after is before or path.endswith("__init__.py"):
        return after
    old_tree = ast.parse(text) if old_tree is None else old_tree
    fewer = _fewer_uses(old_tree, text, code)
    if not fewer:
        return after  # the common case, without the metadata LibCST's visitors need
    package = module.rpartition(".")[0] if module else None
    context = CodemodContext(filename=path, full_module_name=module, full_package_name=package)
    made = _plainly_unused(old_tree, code, fewer, package)
    if made is not None:
        # each is the one import of its name: the remover need not look for uses again
        return after.visit(_Remove(context, sorted(made, key=str), proven=True)) if made else after
    made = _unused(after, context) - _unused(before, context)
    if not made:
        return after
    wrapper = _resolved(after, RemoveImportsVisitor, copy=False)
    remover = _Remove(replace(context, wrapper=wrapper), sorted(made, key=str))
    return wrapper.module.visit(remover)


_WORD = re.compile(r"[A-Za-z_]\w*")


def _fewer_uses(tree: ast.Module, before: str, after: str) -> set[str]:
    """The names the module imports that are written fewer times after the rewrite: only
    these can have lost their last use. A text count, linear in the module."""
    imported = _imported_names(tree)
    if not imported:
        return set()
    old = Counter(w for w in _WORD.findall(before) if w in imported)
    new = Counter(w for w in _WORD.findall(after) if w in imported)
    return {name for name, count in old.items() if new[name] < count}


def _imported_names(tree: ast.Module) -> set[str]:
    """The names the module's import statements bind (at any depth)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.add((alias.asname or alias.name).partition(".")[0])
    names.discard("*")
    return names


def _plainly_unused(
    before: ast.Module, code: str, fewer: set[str], package: str | None
) -> set[Key] | None:
    """What `_unused` would find the rewrite made unused, when the text alone proves it
    (LibCST's scope analysis costs some 0.1 s a file). Each name that lost uses must be
    bound once, by a module-level `from m import name [as alias]` or `import name [as
    alias]`: it stays in use if it is still read as a plain name after, and was made
    unused if it was read before and is written nowhere but in imports after. Anything
    else is None: `_unused` decides."""
    after = ast.parse(code)
    old, new = _Facts(before, package), _Facts(after, package)
    in_imports = Counter(
        word
        for node in ast.walk(after)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for text in (getattr(node, "module", None) or "", *_alias_words(node))
        for word in text.split(".")
    )
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


def _unused(tree: cst.Module, context: CodemodContext) -> set[Key]:
    wrapper = _resolved(tree, GatherUnusedImportsVisitor, copy=True)
    visitor = GatherUnusedImportsVisitor(replace(context, wrapper=wrapper))
    wrapper.module.visit(visitor)
    keys: set[Key] = set()
    for alias, parent in visitor.unused_imports:
        if isinstance(parent, cst.Import):
            keys.add((alias.evaluated_name, None, alias.evaluated_alias))
            continue
        try:
            source = get_absolute_module_from_package_for_import(context.full_package_name, parent)
        except Exception:  # a relative import beyond the top: not ours to judge
            source = None
        if source is not None:
            keys.add((source, alias.evaluated_name, alias.evaluated_alias))
    return keys


def _resolved(tree: cst.Module, user: type[MetadataDependent], *, copy: bool) -> MetadataWrapper:
    """A wrapper holding the metadata `user` and the visitors it makes read (LibCST's
    context-aware visitors take it from `context.wrapper`, as inside a codemod)."""
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=not copy)
    wrapper.resolve_many(user.get_inherited_dependencies())
    return wrapper


class _Remove(RemoveImportsVisitor):
    """LibCST's remover, keeping the blank lines and comments above a line it removes
    whole: they go to the statement after it, so import sections stay apart."""

    def __init__(
        self, context: CodemodContext, unused: Sequence[Key], *, proven: bool = False
    ) -> None:
        super().__init__(context, unused)
        self._gone: dict[int, Sequence[cst.EmptyLine]] = {}
        self._proven = proven

    def visit_Module(self, node: cst.Module) -> None:
        if self._proven:
            self._unused_imports = cast(dict[cst.ImportAlias, Any], _Every())
        else:
            super().visit_Module(node)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if not updated_node.body:
            self._gone[id(original_node)] = original_node.leading_lines
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(body=self._carried(original_node.body, updated_node.body))

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return updated_node.with_changes(body=self._carried(original_node.body, updated_node.body))

    def _carried(
        self, before: Sequence[cst.BaseStatement], after: Sequence[cst.BaseStatement]
    ) -> list[cst.BaseStatement]:
        body = list(after)
        kept = iter(range(len(body)))
        carry: list[cst.EmptyLine] = []
        for statement in before:
            gone = self._gone.get(id(statement))
            if gone is not None:
                carry += gone
                continue
            index = next(kept, None)
            if index is None:
                break
            if carry:
                body[index] = _with_lines(body[index], carry)
                carry = []
        return body


class _Every:
    """What `RemoveImportsVisitor` asks of its unused aliases: each one it asks about is."""

    def __contains__(self, item: object) -> bool:
        return True


def _with_lines(statement: cst.BaseStatement, carry: list[cst.EmptyLine]) -> cst.BaseStatement:
    own = list(getattr(statement, "leading_lines", ()))
    if not any(line.comment for line in carry):
        # blank lines only: the wider gap of the two, never their sum
        return statement if len(own) >= len(carry) else _set_lines(statement, carry)
    return _set_lines(statement, carry + own)


def _set_lines(statement: cst.BaseStatement, lines: list[cst.EmptyLine]) -> cst.BaseStatement:
    if isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement):
        return statement.with_changes(leading_lines=lines)
    return statement
