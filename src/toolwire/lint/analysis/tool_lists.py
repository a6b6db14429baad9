"""The functions a tool list names when it is not written in the call: `Agent(tools=TOOLS)`
where `TOOLS = [f, g]` (or a tuple, or `[*BASE, h]`) is a constant of the same module.

One answer for both layers: TW101's tool shapes and migrate's discovery ask `ToolLists`,
so check and migrate agree on which functions such a list makes tools."""

from __future__ import annotations

import ast
from collections.abc import Iterable

# (the last names of the factories, the position, the keyword) of a `factory-lists` argument
Reader = tuple[frozenset[str], int | None, str]


def readers(
    shapes: Iterable[tuple[Iterable[str], Iterable[tuple[int | None, str]]]],
) -> list[Reader]:
    """`Reader`s from (factories, factory-lists) pairs of the presets' function shapes."""
    found: list[Reader] = []
    for factories, lists in shapes:
        tails = frozenset(f.rpartition(".")[2] for f in factories)
        found += [(tails, at, name) for at, name in lists]
    return found


class ToolLists:
    """Module-level tool lists, proved fixed: bound once, at the top level, to a list or
    tuple display, and (a list) never changed: no method called on it, no item assigned,
    and handed to no call but as a tool list (`tools=TOOLS`)."""

    def __init__(self, tree: ast.Module, reading: Iterable[Reader]) -> None:
        self._tree = tree
        self._readers = tuple(reading)
        self._found: dict[str, tuple[tuple[str, ...], str]] = {}
        self._displays: dict[str, ast.List | ast.Tuple] | None = None
        self._bindings: dict[str, int] = {}
        self._changed: dict[str, str] = {}

    def items(self, name: str) -> tuple[tuple[str, ...], str]:
        """The names the constant `name` lists (its own, then those it spreads), and ""; or
        () and why it is not provably a fixed list."""
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = self._items(name, frozenset())
        return found

    def expand(self, value: ast.expr) -> tuple[list[str], str]:
        """The names a tool list argument gives (a display, possibly with `*CONSTANT`, or a
        constant), and why some are not known ("" when all are)."""
        if isinstance(value, ast.Name):
            listed, why = self.items(value.id)
            return list(listed), why
        if not isinstance(value, ast.List | ast.Tuple):
            return [], "not a list"
        names: list[str] = []
        unknown = ""
        for element in value.elts:
            if isinstance(element, ast.Name):
                names.append(element.id)
            elif isinstance(element, ast.Starred):
                if not isinstance(element.value, ast.Name):
                    unknown = unknown or "it spreads a value that is not a list of this module"
                    continue
                listed, why = self.items(element.value.id)
                unknown = unknown or why
                names += listed
        return names, unknown

    def _items(self, name: str, seen: frozenset[str]) -> tuple[tuple[str, ...], str]:
        displays = self._scan()
        display = displays.get(name)
        if display is None:
            return (), f"`{name}` is not a list or tuple written at the top level of this module"
        if self._bindings.get(name, 0) != 1:
            return (), f"`{name}` is bound more than once in this module"
        if isinstance(display, ast.List) and name in self._changed:
            return (), f"`{name}` may be changed: {self._changed[name]}"
        names: list[str] = []
        for element in display.elts:
            if isinstance(element, ast.Name):
                names.append(element.id)
            elif isinstance(element, ast.Starred):
                spread = element.value
                if not isinstance(spread, ast.Name) or spread.id in seen | {name}:
                    return (), f"`{name}` spreads a value that is not a list of this module"
                listed, why = self._items(spread.id, seen | {name})
                if why:
                    return (), why
                names += listed
        return tuple(dict.fromkeys(names)), ""

    def _scan(self) -> dict[str, ast.List | ast.Tuple]:
        """One walk: the top-level displays, every binding of their names, and the uses
        of a list that may change it."""
        if self._displays is not None:
            return self._displays
        displays: dict[str, ast.List | ast.Tuple] = {}
        for statement in self._tree.body:
            target: ast.expr | None = None
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
            elif isinstance(statement, ast.AnnAssign):
                target = statement.target
            value = getattr(statement, "value", None)
            if isinstance(target, ast.Name) and isinstance(value, ast.List | ast.Tuple):
                displays[target.id] = value
        self._displays = displays
        if not displays:
            return displays
        bindings = self._bindings
        for node in ast.walk(self._tree):
            for bound in _binds(node):
                if bound in displays:
                    bindings[bound] = bindings.get(bound, 0) + 1
            for child in ast.iter_child_nodes(node):
                if (
                    isinstance(child, ast.Name)
                    and child.id in displays
                    and isinstance(child.ctx, ast.Load)
                    and child.id not in self._changed
                ):
                    how = self._changes(node, child)
                    if how:
                        self._changed[child.id] = how
        return displays

    def _changes(self, parent: ast.AST, use: ast.Name) -> str:
        """How `parent` may change the list `use` names, or hand it on to what may ("" when
        it only reads it: a tool list argument, a spread, an item, a loop, an operator)."""
        name = use.id
        if isinstance(parent, ast.Attribute):
            return f"`{name}.{parent.attr}`"
        if isinstance(parent, ast.Subscript):
            return "" if isinstance(parent.ctx, ast.Load) else f"`{name}[...]` is assigned"
        if isinstance(parent, ast.Starred | ast.BinOp | ast.Compare | ast.comprehension):
            return ""
        if isinstance(parent, ast.For | ast.AsyncFor) and parent.iter is use:
            return ""
        if isinstance(parent, ast.keyword):
            if any(k == parent.arg for _, _, k in self._readers):
                return ""
            return f"`{name}` is handed to a call as `{parent.arg or '**'}=`"
        if isinstance(parent, ast.Call) and use in parent.args:
            func = parent.func
            tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            at = parent.args.index(use)
            if any(tail in tails and at == position for tails, position, _ in self._readers):
                return ""
            return f"`{name}` is handed to `{tail or 'a call'}(...)`"
        return f"`{name}` is used as a value (line {getattr(use, 'lineno', '?')})"


def _binds(node: ast.AST) -> Iterable[str]:
    """The names `node` binds (assigns, deletes, defines, imports, catches, captures)."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        yield node.id
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, ast.alias):
        yield node.asname or node.name.partition(".")[0]
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest:
        yield node.rest
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from node.names
