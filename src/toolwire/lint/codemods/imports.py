"""How a module spells the result class or an adapter, and where an added import goes.

Kept apart from the LibCST command plumbing (`toolwire.lint.codemods.command`): `toolwire
migrate` never imports `libcst.codemod` (and its matchers, about 0.3 s of start-up)
unless a wire-content fix needs it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from toolwire.lint.codemods.names import ModuleNames, module_dotted


@dataclass(frozen=True, slots=True)
class ResultRef:
    """How this module spells the result class, and the import that makes it so (if any)."""

    expression: str  # `ToolResult`, `TR`, `toolwire.ToolResult`
    add_import: tuple[str, str | None] | None = None  # (module, name) or (module, None)


def result_reference(
    names: ModuleNames, result_class: str, *, runtime: bool, taken: frozenset[str] = frozenset()
) -> ResultRef:
    """Reuse an existing import or alias of the result class; otherwise say what to add.

    A `TYPE_CHECKING` import only serves when nothing runs it: no factory calls
    (`runtime` is False) and annotations are not evaluated (`from __future__ import
    annotations`). `taken`: names a function that gets the reference binds locally,
    where the module's name would not be seen.
    """
    module, _, name = result_class.rpartition(".")
    found: list[tuple[str, bool]] = []
    for local, bindings in names.bindings.items():
        for binding in bindings:
            if not binding.is_module and binding.target == result_class:
                found.append((local, binding.type_checking))
            elif binding.is_module:
                if binding.local != binding.target.partition(".")[0]:  # `import a.b as x`
                    if binding.target == module:
                        found.append((f"{local}.{name}", binding.type_checking))
                elif binding.target == module or binding.target.startswith(module + "."):
                    found.append((f"{module}.{name}", binding.type_checking))
    for expression, checking in sorted(found, key=lambda f: (f[1], len(f[0]))):
        if expression.partition(".")[0] in taken:
            continue
        if not checking or (not runtime and names.future_annotations):
            return ResultRef(expression)
    if (
        name not in names.other
        and name not in taken
        and all(b.target == result_class for b in names.bindings.get(name, []))
    ):
        return ResultRef(name, (module, name))
    head = module.partition(".")[0]
    if head not in names.other and head not in names.bindings and head not in taken:
        return ResultRef(result_class, (module, None))
    alias, count = f"_{name}", 1
    while alias in taken or alias in names.other or _bound_otherwise(names, alias, result_class):
        alias, count = f"_{name}{count}", count + 1
    return ResultRef(alias, (module, f"{name} as {alias}"))


def _bound_otherwise(names: ModuleNames, local: str, result_class: str) -> bool:
    return any(b.target != result_class or b.is_module for b in names.bindings.get(local, []))


def import_statement(add: tuple[str, str | None]) -> cst.SimpleStatementLine:
    """`import module`, or `from module import a, b as c` for the names `"a, b as c"`."""
    module, name = add
    target = attribute_chain(module)
    if name is None:
        return cst.SimpleStatementLine([cst.Import([cst.ImportAlias(target)])])
    aliases = []
    for one in name.split(", "):
        imported, _, alias = one.partition(" as ")
        asname = cst.AsName(cst.Name(alias)) if alias else None
        aliases.append(cst.ImportAlias(cst.Name(imported), asname))
    return cst.SimpleStatementLine([cst.ImportFrom(module=target, names=aliases)])


def attribute_chain(name: str) -> cst.Name | cst.Attribute:
    head, *rest = name.split(".")
    node: cst.Name | cst.Attribute = cst.Name(head)
    for part in rest:
        node = cst.Attribute(node, cst.Name(part))
    return node


_BLANK = cst.EmptyLine()


def is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(s, cst.Import | cst.ImportFrom) for s in statement.body
    )


def insert_import(
    tree: cst.Module, add: tuple[str, str | None], blank: cst.EmptyLine = _BLANK
) -> cst.Module:
    """Put the import after the docstring, `__future__` imports and the leading import block."""
    body = list(tree.body)
    index = 0
    if body and is_docstring(body[0]):
        index = 1
    while index < len(body) and _is_import_line(body[index]):
        index += 1
    new = import_statement(add)
    after_docstring = index == 1 and is_docstring(body[0])
    if after_docstring:
        new = new.with_changes(leading_lines=[blank])
    if index < len(body) and not _is_import_line(body[index]):
        following = body[index]
        leading = list(following.leading_lines)
        if not leading or leading[0].comment is not None:
            count = 2 if isinstance(following, cst.ClassDef | cst.FunctionDef) else 1
            body[index] = following.with_changes(leading_lines=[blank] * count + leading)
    body.insert(index, new)
    return tree.with_changes(body=body)


def adapter_reference(names: ModuleNames, target: str) -> ResultRef:
    """How the module spells an adapter (`result_tool`, `ToolResultTool`), and its import.

    An import the module already has is reused; a name the module uses for something else
    gets the adapter as `result_<name>`.
    """
    module, _, name = target.rpartition(".")
    for local, bindings in names.bindings.items():
        if any(not b.is_module and b.target == target and not b.type_checking for b in bindings):
            return ResultRef(local)
    alias = f"toolwire_{name}" if name.startswith("result") else f"result_{name}"
    for local in (name, alias):
        if local not in names.other and local not in names.bindings:
            return ResultRef(local, (module, name if local == name else f"{name} as {local}"))
    return ResultRef(target, (module, None))


# -- import placement, as isort and ruff's `I` rules sort (sections, then module names) ----

_FUTURE, _STDLIB, _THIRD, _FIRST = range(4)


def _import_of(statement: cst.BaseStatement) -> tuple[str, bool, bool] | None:
    """(module, is `from`, is relative) of an import line, else None."""
    if not _is_import_line(statement):
        return None
    assert isinstance(statement, cst.SimpleStatementLine)
    small = statement.body[0]
    if isinstance(small, cst.Import):
        return module_dotted(small.names[0].name), False, False
    assert isinstance(small, cst.ImportFrom)
    module = module_dotted(small.module) if small.module is not None else ""
    return module, True, bool(small.relative)


def _section(module: str, relative: bool, own: str | None) -> int:
    head = module.partition(".")[0]
    if module == "__future__":
        return _FUTURE
    if relative or (own is not None and head == own):
        return _FIRST
    if head in sys.stdlib_module_names:
        return _STDLIB
    return _THIRD


def _sort_key(module: str, is_from: bool) -> tuple[bool, str]:
    return (is_from, module.lower())


def insert_imports(
    tree: cst.Module,
    adds: Sequence[tuple[str, str | None]],
    module: str | None,
    *,
    indented: bool = False,
) -> cst.Module:
    """Add imports where isort would: the third-party section, sorted by module name.

    Names from one module share one `from` line, ordered as ruff orders them (classes,
    then functions). The third-party section is the file's first block of imports that
    are neither `__future__`, the standard library nor the module's own package; without
    one, a block is opened after the standard library's. A module with no leading imports
    gets them after its docstring. `indented`: `tree` stands for a function's body.
    """
    own = module.partition(".")[0] if module else None
    blank = cst.EmptyLine(indent=not indented)
    merged: dict[tuple[str, bool], list[str]] = {}
    aliased: list[tuple[str, str | None]] = []  # ruff keeps `as` imports on lines of their own
    for target, name in adds:
        if name is not None and " as " in name:
            aliased.append((target, name))
        else:
            merged.setdefault((target, name is not None), []).extend([name] if name else [])
    ordered = sorted(merged.items(), key=lambda item: _sort_key(item[0][0], item[0][1]))
    for (target, is_from), names in ordered:
        joined = ", ".join(sorted(dict.fromkeys(names), key=_name_key)) if is_from else None
        tree = _insert_one(tree, (target, joined), own, blank)
    for add in aliased:
        tree = _insert_one(tree, add, own, blank)
    return tree


def _name_key(name: str) -> tuple[int, str]:
    bare = name.partition(" as ")[0]
    kind = 0 if bare.isupper() else 1 if bare[:1].isupper() else 2
    return kind, bare


def _insert_one(
    tree: cst.Module, add: tuple[str, str | None], own: str | None, blank: cst.EmptyLine
) -> cst.Module:
    body = list(tree.body)
    start = 1 if body and is_docstring(body[0]) else 0
    end = start
    while end < len(body) and _is_import_line(body[end]):
        end += 1
    if end == start:
        return insert_import(tree, add, blank)
    key = _sort_key(add[0], add[1] is not None)
    new = import_statement(add)
    # Blocks of imports, as blank lines (or comments) separate them.
    groups: list[list[tuple[int, int, tuple[bool, str]]]] = []
    for index in range(start, end):
        found = _import_of(body[index])
        assert found is not None
        line = (index, _section(found[0], found[2], own), _sort_key(found[0], found[1]))
        if not groups or (index > start and body[index].leading_lines):
            groups.append([])
        groups[-1].append(line)
    third = next((g for g in groups if any(sec == _THIRD for _, sec, _ in g)), None)
    if third is not None:
        at = next((i for i, _, k in third if k > key), third[-1][0] + 1)
        if at <= third[-1][0]:
            # Inserted before a line of the block: it takes that line's leading blanks.
            following = body[at]
            new = new.with_changes(leading_lines=following.leading_lines)
            body[at] = following.with_changes(leading_lines=[])
        body.insert(at, new)
        return tree.with_changes(body=body)
    before = [i for g in groups for i, sec, _ in g if sec in (_FUTURE, _STDLIB)]
    at = before[-1] + 1 if before else start
    if at > start or start == 1:
        new = new.with_changes(leading_lines=[blank])
    if at < len(body):
        following = body[at]
        if not any(line.comment is None for line in following.leading_lines):
            count = 2 if isinstance(following, cst.ClassDef | cst.FunctionDef) else 1
            body[at] = following.with_changes(
                leading_lines=[blank] * count + list(following.leading_lines)
            )
    body.insert(at, new)
    return tree.with_changes(body=body)
