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
from collections.abc import Sequence
from dataclasses import replace

import libcst as cst
from libcst import MetadataDependent
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import GatherUnusedImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_absolute_module_from_package_for_import
from libcst.metadata import MetadataWrapper

__all__ = ["drop_unused_imports"]

Key = tuple[str, str | None, str | None]  # (module, name or None, alias or None)


def drop_unused_imports(
    before: cst.Module, text: str, after: cst.Module, code: str, path: str, module: str | None
) -> cst.Module:
    """`after` (whose source is `code`) without the imports it no longer uses that
    `before` (whose source is `text`) used."""
    if after is before or path.endswith("__init__.py"):
        return after
    if not _fewer_uses(text, code):
        return after  # the common case, without the metadata LibCST's visitors need
    package = module.rpartition(".")[0] if module else None
    context = CodemodContext(filename=path, full_module_name=module, full_package_name=package)
    made = _unused(after, context) - _unused(before, context)
    if not made:
        return after
    wrapper = _resolved(after, RemoveImportsVisitor, copy=False)
    remover = _Remove(replace(context, wrapper=wrapper), sorted(made, key=str))
    return wrapper.module.visit(remover)


_WORD = re.compile(r"[A-Za-z_]\w*")


def _fewer_uses(before: str, after: str) -> bool:
    """Some name the module imports is written fewer times after the rewrite: only then
    can an import have lost its last use. A text count, linear in the module."""
    imported = _imported_names(before)
    if not imported:
        return False
    old = Counter(w for w in _WORD.findall(before) if w in imported)
    new = Counter(w for w in _WORD.findall(after) if w in imported)
    return any(new[name] < count for name, count in old.items())


def _imported_names(text: str) -> set[str]:
    """The names the module's import statements bind (at any depth)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.add((alias.asname or alias.name).partition(".")[0])
    names.discard("*")
    return names


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

    def __init__(self, context: CodemodContext, unused: Sequence[Key]) -> None:
        super().__init__(context, unused)
        self._gone: dict[int, Sequence[cst.EmptyLine]] = {}

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
