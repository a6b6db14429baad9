"""Why a tool method that could migrate stays as it is.

- the declaration rule: a declaration waits for every implementation (its family);
- the adapter base wraps every method it names, in the class and its subclasses;
- its own class (or a subclass) uses the `str` it returns other than by returning it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import libcst as cst

from toolwire.lint.codemods.crossfile import FAMILY, CrossFile, Member, family_holds
from toolwire.lint.codemods.names import ModuleNames, def_lines
from toolwire.lint.codemods.reports import MethodEvent, ToolReturnsReport
from toolwire.lint.codemods.tool_returns.scan import Scan
from toolwire.lint.codemods.tool_returns.structure import (
    ToolClass,
    ToolMethod,
    ancestors_in,
    base_exprs,
    descendants,
    dotted_name,
    is_super,
    lineage_of,
)
from toolwire.lint.codemods.tool_returns.walk import children
from toolwire.lint.model import ClassShape


def hold_families(
    planned: list[ToolMethod], cross: CrossFile, module: str | None, path: str
) -> None:
    """Skip a class tool method whose family another file (or round) left as it is."""
    if not cross.held or not module:
        return
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            key = f"{dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
            root, why = cross.held.get(key, (None, ""))
            if root is not None and root != f"{path}:{key}":  # the skip itself keeps its reason
                entry.status, entry.reason = "skip", why


def hold_in_module(
    planned: list[ToolMethod],
    local: dict[str, ToolClass],
    names: ModuleNames,
    module: str | None,
    path: str,
    lines: Mapping[cst.FunctionDef, int],
) -> bool:
    """The family rule inside one module (the run applies it across files); True if it
    skipped a method."""
    members = [
        Member(
            f"{dotted_name(module, e.cls.qualname)}.{e.node.name.value}",
            path,
            lines.get(e.node, 0),
            e.status,
            e.reason,
            e.status == "skip" and not e.pending and not e.reason.startswith(FAMILY),
        )
        for e in planned
        if e.cls is not None and e.shape is None
    ]
    if not any(m.own for m in members) or not any(m.status == "migrate" for m in members):
        return False
    index = {
        dotted_name(module, c.qualname): tuple(
            names.resolve(b, local) or "" for b in base_exprs(c.node)
        )
        for c in local.values()
    }
    held = family_holds(members, index)
    changed = False
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            key = f"{dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
            if key in held:
                entry.status, entry.reason = "skip", held[key][1]
                changed = True
    return changed


def record_member(
    report: ToolReturnsReport,
    entry: ToolMethod,
    event: MethodEvent,
    cross: CrossFile,
    module: str | None,
) -> None:
    if entry.cls is None or entry.shape is not None or not module:
        return  # a framework calls its tools through an adapter that takes both kinds
    key = f"{dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
    own = entry.status == "skip" and not entry.pending and not entry.reason.startswith(FAMILY)
    report.members.append(Member(key, event.path, event.line, entry.status, entry.reason, own))


def guard_wiring(planned: list[ToolMethod], local: dict[str, ToolClass]) -> bool:
    """An adapter base wraps every method it names in the class and its subclasses.

    So a class is wired only when none of those methods, in it or in a subclass of this
    module, is left unmigrated; otherwise its methods are skipped too. True if any was.
    """
    skipped: dict[tuple[str, ClassShape], list[ToolMethod]] = {}
    for entry in planned:
        if entry.cls is not None and isinstance(entry.shape, ClassShape):
            if entry.status == "skip":
                skipped.setdefault((entry.cls.qualname, entry.shape), []).append(entry)
    if not skipped:
        return False
    changed = False
    for entry in planned:
        if entry.status != "migrate" or entry.cls is None:
            continue
        shape = entry.shape
        if not isinstance(shape, ClassShape) or shape.wraps_annotated:
            continue
        for cls in (entry.cls, *descendants(entry.cls, local)):
            blocking = skipped.get((cls.qualname, shape))
            if blocking:
                other = blocking[0]
                entry.status = "skip"
                entry.reason = (
                    f"`{other.owner}.{other.node.name.value}` is not migrated, and the "
                    "adapter base would wrap it too"
                )
                changed = True
                break
    return changed


def used_as_str(
    planned: list[ToolMethod], classes: list[ToolClass], text: str | None = None
) -> None:
    """Skip a tool method whose `str` its own class (or a subclass) uses other than by returning it.

    `first = self._run(q); first.startswith(...)` or `run_in_executor(None, self._run, q)`
    would get a ToolResult after the migration. `text`, the module's source when known,
    spares the walks of the methods when no name is written but in its `def` lines.
    """
    by_class: dict[int, dict[str, list[ToolMethod]]] = {}
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            by_class.setdefault(id(entry.cls.node), {}).setdefault(
                entry.node.name.value, []
            ).append(entry)
    if by_class and text is not None:
        written = written_elsewhere(text, {n for found in by_class.values() for n in found})
        by_class = {
            key: kept
            for key, found in by_class.items()
            if (kept := {n: e for n, e in found.items() if n in written})
        }
    if not by_class:
        return
    entries = {e.node: e for e in planned}
    for cls in classes:
        names: dict[str, list[ToolMethod]] = {}
        for owner in [cls, *ancestors_in(cls, classes)]:
            for name, found in by_class.get(id(owner.node), {}).items():
                names.setdefault(name, []).extend(found)
        if not names:
            continue
        for statement, me in _own_methods(cls):
            returned = returned_calls(statement) if statement in entries else set()
            for use in attribute_uses(statement.body, me, frozenset(names)):
                if id(use) in returned:
                    continue
                for entry in names[use.attr.value]:
                    if entry.status == "migrate":
                        entry.status = "skip"
                        entry.reason = (
                            f"`{cls.qualname}.{statement.name.value}` uses the `str` it "
                            "returns; after the migration that would be a ToolResult"
                        )


def written_elsewhere(text: str, names: Iterable[str]) -> set[str]:
    """The names written as a word of `text` more often than as the name of a `def` line:
    only these can be an attribute (`self.name`) anywhere in the module."""
    names = set(names)
    defs = def_lines(text, names)
    found: set[str] = set()
    for name in names:
        count, at, size = 0, text.find(name), len(name)
        while at >= 0:
            end = at + size
            if not (at and _is_word(text[at - 1])) and not (
                end < len(text) and _is_word(text[end])
            ):
                count += 1
            at = text.find(name, at + 1)
        if count > len(defs.get(name, ())):
            found.add(name)
    return found


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"  # what `\w` of `re` matches


def returned_calls(func: cst.FunctionDef) -> set[int]:
    """ids of `self.m` in `return self.m(...)` (also awaited or in a ternary branch)."""
    found: set[int] = set()
    for node, _ in Scan.of(func, yields_possible=False).returns:
        stack: list[cst.BaseExpression | None] = [node.value]
        while stack:
            value = stack.pop()
            if isinstance(value, cst.IfExp):
                stack += [value.body, value.orelse]
            elif isinstance(value, cst.Await):
                stack.append(value.expression)
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
                found.add(id(value.func))
    return found


def attribute_uses(
    root: cst.CSTNode, me: str | None, names: frozenset[str]
) -> Iterator[cst.Attribute]:
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.Attribute and node.attr.value in names:
            receiver = node.value
            if (isinstance(receiver, cst.Name) and receiver.value == me) or is_super(receiver):
                yield node
        stack += children(node)


def inherited_str_uses(
    classes: list[ToolClass], local: dict[str, ToolClass], methods: frozenset[str]
) -> Iterator[tuple[ToolClass, str]]:
    """`self.m` / `super().m` of a tool method the class inherits from another module,
    used other than by returning it: the base must not start returning ToolResults."""
    for cls in classes:
        lineage, complete = lineage_of(cls, local, skip_own=False)
        if complete:
            continue
        defined = {
            s.name.value
            for owner in lineage
            for s in owner.node.body.body
            if isinstance(s, cst.FunctionDef)
        }
        inherited = methods - defined
        if not inherited:
            continue
        for statement, me in _own_methods(cls):
            returned = returned_calls(statement)
            for use in attribute_uses(statement.body, me, inherited):
                if id(use) not in returned:
                    yield cls, f"{use.attr.value}"
                    break


def _own_methods(cls: ToolClass) -> Iterator[tuple[cst.FunctionDef, str | None]]:
    """The methods defined in the class body, each with the name of its first parameter."""
    for statement in cls.node.body.body:
        if isinstance(statement, cst.FunctionDef):
            params = [*statement.params.posonly_params, *statement.params.params]
            yield statement, params[0].name.value if params else None
