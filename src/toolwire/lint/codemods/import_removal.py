"""Removing the imports a migration made unused, with LibCST's own visitors: loaded only
when some imported name lost uses (`libcst.codemod` costs some 0.25 s to import)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

import libcst as cst
from libcst import MetadataDependent
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import GatherUnusedImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_absolute_module_from_package_for_import
from libcst.metadata import MetadataWrapper

__all__ = ["Key", "remove"]

Key = tuple[str, str | None, str | None]  # (module, name or None, alias or None)


def remove(
    before: cst.Module,
    after: cst.Module,
    path: str,
    module: str | None,
    proven: set[Key] | None,
) -> cst.Module:
    """`after` without the imports in `proven` (each the one import of its name, proved
    unused), or, when None, without those LibCST finds `after` no longer uses and
    `before` used."""
    package = module.rpartition(".")[0] if module else None
    context = CodemodContext(filename=path, full_module_name=module, full_package_name=package)
    if proven is not None:
        # each is the one import of its name: the remover need not look for uses again
        if not proven:
            return after
        return after.visit(_Remove(context, sorted(proven, key=str), proven=True))
    made = _unused(after, context) - _unused(before, context)
    if not made:
        return after
    wrapper = _resolved(after, RemoveImportsVisitor, copy=False)
    remover = _Remove(replace(context, wrapper=wrapper), sorted(made, key=str))
    return wrapper.module.visit(remover)


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
