"""Which functions a framework makes tools, per shape: a decorator (`@tool`,
`@mcp.tool()` on a known instance), a factory (`FunctionTool.from_defaults(fn=f)`,
`mcp.add_tool(f)`), or a class's literal list of tool methods (`spec_functions`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper

from toolwire.lint.analysis.tool_lists import ToolLists, readers
from toolwire.lint.codemods.names import ModuleNames, dotted, target_names
from toolwire.lint.codemods.tool_returns.structure import (
    ToolClass,
    base_exprs,
    blocks_of,
    lineage_of,
)
from toolwire.lint.codemods.tool_returns.walk import children
from toolwire.lint.model import ClassShape, FunctionShape, ListedShape, frameworks


def listed_methods(
    cls: ToolClass, local: dict[str, ToolClass], names: ModuleNames, shape: ClassShape
) -> tuple[tuple[str, ...], str]:
    """The tool methods a class lists in `shape.methods_from`, or why they are not known.

    The list is read as LlamaIndex's `BaseToolSpec.to_tool_list` reads `spec_functions`: a
    list or tuple of names and of (sync, async) pairs of names; only literals are trusted.
    """
    attribute = shape.methods_from
    lineage, _ = lineage_of(cls, local, skip_own=False)
    for owner in lineage:
        values = [
            small.value
            for statement in owner.node.body.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
            if isinstance(small, cst.Assign | cst.AnnAssign | cst.AugAssign)
            and attribute in _assigned_names(small)
        ]
        if not values:
            continue
        if len(values) > 1:
            return (), f"`{attribute}` is assigned more than once in {owner.qualname}"
        listed = _literal_names(values[0])
        if listed is None:
            return (), f"`{attribute}` of {owner.qualname} is not a literal list of names"
        return listed, ""
    for owner in lineage:
        for base in base_exprs(owner.node):
            if isinstance(base, cst.Name) and base.value in local:
                continue
            if names.resolve(base, local) not in shape.bases:
                return (), f"`{attribute}` is not set in this module (it comes from a base)"
    return (), ""


def _assigned_names(small: cst.Assign | cst.AnnAssign | cst.AugAssign) -> set[str]:
    if isinstance(small, cst.Assign):
        targets = [t.target for t in small.targets]
    else:
        targets = [small.target]
    return {t.value for t in targets if isinstance(t, cst.Name)}


def _literal_names(value: cst.BaseExpression | None) -> tuple[str, ...] | None:
    if not isinstance(value, cst.List | cst.Tuple):
        return None
    found: list[str] = []
    for element in value.elements:
        item = element.value
        if isinstance(element, cst.StarredElement):
            return None
        parts = [e.value for e in item.elements] if isinstance(item, cst.Tuple) else [item]
        if isinstance(item, cst.Tuple) and len(parts) != 2:
            return None
        for part in parts:
            text = part.evaluated_value if isinstance(part, cst.SimpleString) else None
            if not isinstance(text, str) or not text.isidentifier():
                return None
            found.append(text)
    return tuple(dict.fromkeys(found))


FunctionTool = tuple[cst.FunctionDef, FunctionShape, int, str]


def function_tools(
    tree: cst.Module,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    imported: Mapping[str, str] | None = None,
) -> list[FunctionTool]:
    """The functions a framework decorator makes tools, block by block (module, function bodies).

    `@X.tool()` counts only where X is bound, in that block or an enclosing one, to a call
    of the framework's class (`mcp = FastMCP(...)`) or annotated as one, or is `imported`
    (name -> class) from a module of the run that binds it so: never by its name.
    """
    if not any(s.decorators or s.attributes for s in shapes):
        return []
    found: list[FunctionTool] = []
    for statement, bound in scoped_functions(tree, names, imported):
        match = _tool_decorator(statement, names, shapes, bound) or _unknown_instance(
            statement, names, shapes, bound
        )
        if match is not None:
            found.append((statement, *match))
    return found


def listed_handlers(
    tree: cst.Module,
    names: ModuleNames,
    shapes: Sequence[ListedShape],
    imported: Mapping[str, str] | None = None,
) -> list[tuple[cst.FunctionDef, str]]:
    """Handlers a framework calls for every tool (`@server.call_tool()` on an MCP
    low-level `Server`): never rewritten, each listed with why."""
    found: list[tuple[cst.FunctionDef, str]] = []
    for statement, bound in scoped_functions(tree, names, imported):
        for decorator in statement.decorators:
            expr = decorator.decorator
            called = expr.func if isinstance(expr, cst.Call) else expr
            if not (isinstance(called, cst.Attribute) and isinstance(called.value, cst.Name)):
                continue
            owner = bound.get(called.value.value)
            shape = next(
                (s for s in shapes if owner in s.instances and called.attr.value in s.attributes),
                None,
            )
            if shape is not None:
                found.append((statement, f"`@{dotted(called)}()`: {shape.reason}"))
                break
    return found


def listed_calls(
    tree: cst.Module, names: ModuleNames, shapes: Sequence[ListedShape]
) -> list[tuple[cst.Call, str, str]]:
    """Tools built by a call migrate does not rewrite (the Agents SDK's `FunctionTool(...)`):
    the call as shown (with its literal `name=`), and why."""
    wanted = {call: shape for shape in shapes for call in shape.calls}
    if not wanted:
        return []
    found: list[tuple[cst.Call, str, str]] = []
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        stack += children(node)
        if not isinstance(node, cst.Call):
            continue
        shape = wanted.get(names.resolve(node.func) or "")
        if shape is None:
            continue
        named = next((a.value for a in node.args if a.keyword and a.keyword.value == "name"), None)
        label = cst.Module([]).code_for_node(named) if isinstance(named, cst.SimpleString) else ""
        shown = f"{dotted(node.func)}({f'name={label}' if label else '...'})"
        found.append((node, shown, shape.reason))
    return found


def decorated_methods(
    classes: Iterable[ToolClass], names: ModuleNames, shapes: Sequence[FunctionShape]
) -> list[tuple[ToolClass, cst.FunctionDef, str]]:
    """Methods under a framework decorator that marks a function for registration
    elsewhere (fastmcp's `@tool`, then `mcp.add_tool(obj.method)`), with why they stay:
    the bound method is registered where migrate does not follow it."""
    found: list[tuple[ToolClass, cst.FunctionDef, str]] = []
    for cls in classes:
        body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
        for statement in flat_statements(body):
            if not isinstance(statement, cst.FunctionDef) or statement.name.value in cls.methods:
                continue
            match = _tool_decorator(statement, names, shapes, {})
            if match is None or match[0].wire != "under" or not match[0].decorators:
                continue
            expr = statement.decorators[match[1]].decorator
            shown = dotted(expr.func if isinstance(expr, cst.Call) else expr)
            found.append(
                (
                    cls,
                    statement,
                    f"`@{shown}` on a method: the bound method is registered elsewhere "
                    f"(`add_tool(obj.{statement.name.value})`), which migrate does not "
                    "follow; wrap it by hand",
                )
            )
    return found


def _unknown_instance(
    func: cst.FunctionDef,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
) -> tuple[FunctionShape, int, str] | None:
    """`@X.tool` where X is not known to be the framework's object: skipped with the
    reason, so that the tool is not missed silently."""
    for index, decorator in enumerate(func.decorators):
        expr = decorator.decorator
        called = expr.func if isinstance(expr, cst.Call) else expr
        if isinstance(called, cst.Attribute):
            match = unknown_owner(called, names, shapes, bound, factories=False)
            if match is not None:
                return match[0], index, f"`@{dotted(called)}`: {match[1]}"
    return None


def unknown_owner(
    called: cst.Attribute,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
    *,
    factories: bool,
) -> tuple[FunctionShape, str] | None:
    """The shape and why for `X.tool` (`X.add_tool` too, with `factories`) where X is not
    known to be the framework's object, in a module that imports the framework or where
    X is imported from another module (`from app.server import mcp`); else None."""
    if not isinstance(called.value, cst.Name):
        return None
    owner, attribute = called.value.value, called.attr.value
    known = bound.get(owner)
    if known is not None and known.partition(".")[0] not in names.other:
        return None  # bound to a call of something imported: another object's `.tool`
    imported = {b.target.partition(".")[0] for bs in names.bindings.values() for b in bs}
    binding = next(iter(names.bindings.get(owner, ())), None)
    source = binding.target.rpartition(".")[0] if binding and not binding.is_module else ""
    instances = {i for shape in shapes for i in shape.instances}
    for shape in shapes:
        classes = set(shape.instances)
        methods = set(shape.attributes)
        if factories:  # `mcp.add_tool`: a method of a class some shape has instances of
            held = [f for f in shape.factories if f.rpartition(".")[0] in instances]
            classes |= {f.rpartition(".")[0] for f in held}
            methods |= {f.rpartition(".")[2] for f in held}
        if attribute not in methods:
            continue
        roots = {c.partition(".")[0] for c in classes}
        kinds = " or ".join(sorted({f"`{c.rpartition('.')[2]}`" for c in classes}))
        if source and owner not in bound and source.partition(".")[0] not in roots:
            calls = " or ".join(sorted({f"`{c.rpartition('.')[2]}(...)`" for c in classes}))
            noun = "server " if shape.framework in ("fastmcp", "mcp") else ""
            return shape, (
                f"{noun}`{owner}` is imported from `{source}`; the run does not see it bound "
                f"there to a call of {calls}: bind it so, or wrap the tools by hand"
            )
        if not roots & imported:
            continue
        if known is not None:
            how = f"it is bound to what `{known}()` returns, which is not followed"
        elif owner in names.bindings and owner not in bound:
            how = f"it is imported from `{names.resolve(called.value)}`"
        else:
            how = "it is not bound to a call of one, or annotated as one, where it is used"
        return shape, f"`{owner}` is not known to be a {kinds}: {how}"
    return None


def scoped_functions(
    tree: cst.Module, names: ModuleNames, imported: Mapping[str, str] | None = None
) -> Iterator[tuple[cst.FunctionDef, dict[str, str | None]]]:
    """Every function of the module, with the instances bound where it is defined."""
    for body, bound in scoped_blocks(tree, names, imported):
        for statement in flat_statements(body):
            if isinstance(statement, cst.FunctionDef):
                yield statement, bound


def scoped_blocks(
    tree: cst.Module, names: ModuleNames, imported: Mapping[str, str] | None = None
) -> Iterator[tuple[Sequence[cst.BaseStatement], dict[str, str | None]]]:
    """The module's body and every function's, each with the instances bound there: in
    the block or an enclosing one (`mcp = FastMCP(...)` in `create_server()`), or as a
    parameter of an enclosing function annotated as a class (`def register(mcp: FastMCP)`)."""
    aliases = _class_aliases(tree, names)
    blocks: list[tuple[Sequence[cst.BaseStatement], dict[str, str | None]]] = [
        (tree.body, dict(imported or {}))
    ]
    while blocks:
        body, outer = blocks.pop()
        bound = dict(outer)
        bound.update(_instances(body, names, aliases))
        yield body, bound
        for statement in flat_statements(body):
            if not isinstance(statement, cst.FunctionDef):
                continue
            if isinstance(statement.body, cst.IndentedBlock):
                inner = dict(bound)
                params = statement.params
                for param in (*params.posonly_params, *params.params, *params.kwonly_params):
                    annotation = param.annotation
                    inner[param.name.value] = (
                        names.resolve(_unsubscripted(annotation.annotation))
                        if annotation is not None
                        else None
                    )
                blocks.append((statement.body.body, inner))


def _unsubscripted(annotation: cst.BaseExpression) -> cst.BaseExpression:
    return annotation.value if isinstance(annotation, cst.Subscript) else annotation  # `Agent[D]`


def _class_aliases(tree: cst.Module, names: ModuleNames) -> dict[str, str]:
    """Module-level names bound only to an imported name (`ServerFactory = FastMCP`, in
    a `try` or an `if` too): what they stand for. Bound to two things: not an alias."""
    found: dict[str, str | None] = {}
    for statement in flat_statements(tree.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Assign | cst.AnnAssign) or small.value is None:
                continue
            value = small.value
            if isinstance(value, cst.Name) and value.value == "None":
                continue  # the fallback of a failed import: calling it fails anyway
            head = dotted(value) if isinstance(value, cst.Name | cst.Attribute) else None
            target = (
                names.resolve(value) if head and head.partition(".")[0] in names.bindings else None
            )
            targets = (
                [t.target for t in small.targets]
                if isinstance(small, cst.Assign)
                else [small.target]
            )
            for assign in targets:
                for name in target_names(assign):
                    found[name] = target if found.get(name, target) == target else None
    return {name: target for name, target in found.items() if target is not None}


def flat_statements(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The statements of a block and of its `if`/`try`/`with` blocks, not of defs or classes."""
    for statement in body:
        yield statement
        if isinstance(statement, cst.BaseCompoundStatement) and not isinstance(
            statement, cst.FunctionDef | cst.ClassDef
        ):
            for block in blocks_of(statement):
                yield from flat_statements(block)


def _instances(
    body: Sequence[cst.BaseStatement], names: ModuleNames, aliases: Mapping[str, str]
) -> dict[str, str | None]:
    """Names bound in this block to a call of a class (`x = Cls(...)`, `x: Cls = ...`),
    through the module's `aliases` of classes (`x = ServerFactory(...)`).

    A name bound twice to different things maps to None.
    """
    bound: dict[str, str | None] = {}

    def bind(name: str, target: str | None) -> None:
        bound[name] = target if bound.get(name, target) == target else None

    for statement in flat_statements(body):
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            bind(statement.name.value, None)
            continue
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                value = small.value
                target = names.resolve(value.func) if isinstance(value, cst.Call) else None
                if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
                    target = aliases.get(value.func.value, target)
                for assign in small.targets:
                    for name in target_names(assign.target):
                        bind(name, target)
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                annotation = _unsubscripted(small.annotation.annotation)
                bind(small.target.value, names.resolve(annotation))
    return bound


def _tool_decorator(
    func: cst.FunctionDef,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
) -> tuple[FunctionShape, int, str] | None:
    for index, decorator in enumerate(func.decorators):
        match = decorator_shape(decorator.decorator, names, shapes, bound)
        if match is not None:
            return match[0], index, match[1]
    return None


def decorator_shape(
    expr: cst.BaseExpression,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
    keywords: Sequence[cst.Arg] = (),
) -> tuple[FunctionShape, str] | None:
    """The shape whose tool decorator `expr` is (`@tool`, `@mcp.tool("name")`), and why
    it stays the framework's (a keyword the adapter has no counterpart for), or None.
    `keywords`: those of a call that applies the bare decorator (`mcp.tool(fn, ...)`)."""
    called = expr.func if isinstance(expr, cst.Call) else expr
    target = names.resolve(called)
    args = [*(expr.args if isinstance(expr, cst.Call) else ()), *keywords]
    for shape in shapes:
        refused = [
            a.keyword.value
            for a in args
            if a.keyword is not None and a.keyword.value in shape.refuse
        ]
        reason = (
            f"`{refused[0]}=` has no counterpart in the adapter: it stays the framework's"
            if refused
            else ""
        )
        if target is not None and target in shape.decorators:
            return shape, reason
        if (
            isinstance(called, cst.Attribute)
            and called.attr.value in shape.attributes
            and isinstance(called.value, cst.Name)
            and bound.get(called.value.value) in shape.instances
        ):
            return shape, reason
    return None


FactoryTool = tuple[cst.FunctionDef, FunctionShape, list[cst.Call], str]


def factory_tools(
    tree: cst.Module,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    imported: Mapping[str, str] | None = None,
    constants: ListConstants | None = None,
) -> list[FactoryTool]:
    """Functions handed to a framework factory (`FunctionTool.from_defaults(fn=f)`), or to a
    method of an instance that makes tools (`mcp.add_tool(f)` where `mcp = FastMCP(...)`).

    The function is migrated (and the factory swapped for the adapter's, or the adapter
    put on the function) only when every use of its name is such a hand-over: anywhere
    else it would get a ToolResult. A name two functions of the module share is not
    followed: which one is handed over is not known.
    """
    defined: dict[str, list[cst.FunctionDef]] = {}
    for function, _ in scoped_functions(tree, names, imported):
        defined.setdefault(function.name.value, []).append(function)
    functions = {name: found[0] for name, found in defined.items() if len(found) == 1}
    handed: dict[str, list[tuple[cst.Call, FunctionShape, cst.Name, str]]] = {}
    for node, bound in _block_calls(tree, names, imported):
        shape, refused = _handing_shape(node, names, shapes, bound)
        for value in handed_names(node, shape, constants) if shape is not None else ():
            assert shape is not None
            if value.value in functions:
                handed.setdefault(value.value, []).append((node, shape, value, refused))
    uses = references(tree, [functions[n] for n in handed]) if handed else {}
    found: list[FactoryTool] = []
    for name, calls in handed.items():
        function = functions[name]
        # Every use of the name must be a hand-over.
        passed = {id(value) for _, _, value, _ in calls}
        others = [u for u in uses[function] if id(u) not in passed]
        refused = next((r for *_, r in calls if r), "")
        reason = (
            f"`{name}` is also used other than as the factory's function, "
            "where it would get a ToolResult"
            if others
            else refused
        )
        found.append((function, calls[0][1], [c for c, *_ in calls], reason))
    return found


def unfollowed_tools(
    tree: cst.Module,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    imported: Mapping[str, str] | None = None,
    constants: ListConstants | None = None,
) -> list[tuple[cst.Call, str, str]]:
    """Tools handed to a framework that migrate does not follow, each as (the call, how it
    is shown, why), so that none is skipped in silence: a list of tool functions it cannot
    read whole (`tools=make()`, a constant that may change), and a function handed by a
    name the module imports (`from app.search import search`, `Agent(tools=[search])`):
    migrate follows a tool function within its module only. A framework's own tools
    (`google_search` from `google.adk.tools`) are not named."""
    constants = constants or ListConstants(tree, None, shapes)
    own = tuple(m for f in frameworks() for m in f.modules)
    found: list[tuple[cst.Call, str, str]] = []
    for node, bound in _block_calls(tree, names, imported):
        shape, _ = _handing_shape(node, names, shapes, bound)
        if shape is None:
            continue
        shown = dotted(node.func) or "call"
        for keyword, value in _list_arguments(node, shape):
            if isinstance(value, cst.Name) and value.value == "None":
                continue  # no tools
            why = constants.names(value)[1]
            if not why:
                continue  # a literal list, or a constant proved fixed
            code = cst.Module([]).code_for_node(value)
            found.append(
                (
                    node,
                    f"{shown}({keyword}={code})",
                    f"{why}, so migrate does not follow `{code}`: the tools in it are left as "
                    "they are; list them in the call or wrap them by hand",
                )
            )
        for value in handed_names(node, shape, constants):
            bindings = names.bindings.get(value.value)
            if not bindings or value.value in names.other or value.value in bound:
                continue
            target = bindings[0].target
            if bindings[0].is_module or any(target == m or target.startswith(f"{m}.") for m in own):
                continue
            home, _, adapter = shape.adapter.rpartition(".")
            found.append(
                (
                    node,
                    f"{shown}({value.value})",
                    f"`{value.value}` is imported from `{target.rpartition('.')[0]}`, and "
                    "migrate follows a tool function within its module only: where it is "
                    f"defined, put `@{adapter}` (from {home}) on it and return a ToolResult",
                )
            )
    return found


class ListConstants:
    """The module's tool list constants (`TOOLS = [f, g]`) as `analysis.tool_lists` proves
    them fixed (the check's own answer), with the libcst names of their items."""

    def __init__(
        self, tree: cst.Module, source: str | None, shapes: Sequence[FunctionShape]
    ) -> None:
        self._tree = tree
        self._source = source
        self._readers = readers((f.factories, f.factory_lists) for f in shapes if f.factory_lists)
        self._lists: ToolLists | None = None
        self._displays: dict[str, cst.List | cst.Tuple] = {}
        self._functions: frozenset[str] = frozenset()

    def names(self, value: cst.BaseExpression) -> tuple[list[cst.Name], str]:
        """The function names a tool list argument gives (a display, possibly with
        `*CONSTANT`, or a constant), and why some are not known ("" when all are)."""
        if isinstance(value, cst.Name):
            return self._constant(value.value)
        if not isinstance(value, cst.List | cst.Tuple):
            return [], "it is not a list written in the call or in this module"
        found: list[cst.Name] = []
        unknown = ""
        for element in value.elements:
            if isinstance(element, cst.StarredElement):
                spread = element.value
                if isinstance(spread, cst.Name):
                    listed, why = self._constant(spread.value)
                else:
                    listed, why = [], "it spreads a value that is not a list of this module"
                found += listed
                unknown = unknown or why
            elif isinstance(element.value, cst.Name):
                found.append(element.value)
        return found, unknown

    def _constant(self, name: str) -> tuple[list[cst.Name], str]:
        lists = self._read()
        if lists is None:
            return [], "the module does not parse as Python"
        listed, why = lists.items(name)
        if why:
            return [], why
        found: list[cst.Name] = []
        stack, seen = [name], set()
        while stack:
            display = self._displays.get(stack.pop())
            if display is None or id(display) in seen:
                continue
            seen.add(id(display))
            for element in display.elements:
                item = element.value
                if isinstance(item, cst.Name) and isinstance(element, cst.StarredElement):
                    stack.append(item.value)
                elif isinstance(item, cst.Name) and item.value in self._functions:
                    found.append(item)  # a module-level function, as the constant's scope
        return [n for n in found if n.value in listed], ""

    def _read(self) -> ToolLists | None:
        if self._lists is None:
            try:
                module = ast.parse(self._source if self._source is not None else self._tree.code)
            except (SyntaxError, ValueError):
                return None
            self._lists = ToolLists(module, self._readers)
            for statement in self._tree.body:
                for small in (
                    statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
                ):
                    target = _single_target(small)
                    value = getattr(small, "value", None)
                    if target and isinstance(value, cst.List | cst.Tuple):
                        self._displays[target] = value
            self._functions = frozenset(
                s.name.value
                for s in flat_statements(self._tree.body)
                if isinstance(s, cst.FunctionDef)
            )
        return self._lists


def _single_target(small: cst.BaseSmallStatement) -> str | None:
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
    elif isinstance(small, cst.AnnAssign):
        target = small.target
    else:
        return None
    return target.value if isinstance(target, cst.Name) else None


def _list_arguments(
    call: cst.Call, shape: FunctionShape
) -> Iterator[tuple[str, cst.BaseExpression]]:
    """The arguments of `call` that `shape`'s `factory-lists` name, with that name."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for at, name in shape.factory_lists:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == name:
                yield name, arg.value
        if at is not None and at < len(positional) and not any(a.star for a in call.args):
            yield name, positional[at].value


def handed_names(
    call: cst.Call, shape: FunctionShape, constants: ListConstants | None = None
) -> Iterator[cst.Name]:
    """The names `call` hands to `shape`'s factory as functions: its first argument or one
    of `factory-keywords`, or the names in a list of `factory-lists` (`Agent(tools=[f])`),
    also through a constant `constants` proves fixed (`tools=TOOLS`, `[*BASE, f]`)."""
    positional = [a for a in call.args if a.keyword is None]
    for index, arg in enumerate(call.args):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if arg.star:
            break  # positions after `*args` are not known
        position = positional.index(arg) if keyword is None else None
        if shape.factory_lists:
            listed = any(
                (keyword is not None and keyword == name) or (keyword is None and position == at)
                for at, name in shape.factory_lists
            )
            if listed and constants is not None:
                yield from constants.names(arg.value)[0]
            elif listed and isinstance(arg.value, cst.List | cst.Tuple):
                for element in arg.value.elements:
                    if isinstance(element.value, cst.Name) and not isinstance(
                        element, cst.StarredElement
                    ):
                        yield element.value
        elif (index == 0 and keyword is None) or keyword in shape.factory_keywords:
            if isinstance(arg.value, cst.Name):
                yield arg.value


def _handing_shape(
    call: cst.Call,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
) -> tuple[FunctionShape | None, str]:
    """The shape of a call that hands a function to a framework, and why it stays the
    framework's: a factory (`mcp.add_tool(f)`), or a tool decorator applied by a call
    (`mcp.tool(f)`, `mcp.tool("name")(f)`, `tool(f)`), which the adapter under it serves."""
    func = call.func
    if isinstance(func, cst.Attribute):
        target = names.resolve(func)
        owner = func.value
        if isinstance(owner, cst.Name) and bound.get(owner.value):
            target = f"{bound[owner.value]}.{func.attr.value}"
        shape = next((f for f in shapes if target in f.factories), None)
        if shape is not None:
            return shape, ""
    elif isinstance(func, cst.Name):  # `Tool(f)`, `Agent(tools=[f])`
        target = names.resolve(func)
        shape = next((f for f in shapes if target in f.factories), None)
        if shape is not None:
            return shape, ""
    if isinstance(func, cst.Call):
        match = decorator_shape(func, names, shapes, bound)
    else:
        match = decorator_shape(func, names, shapes, bound, keywords=call.args)
    if match is None:  # `mcp.add_tool(f)`, `mcp.tool()(f)` on a server not known here
        applied = func.func if isinstance(func, cst.Call) else func
        if isinstance(applied, cst.Attribute):
            unknown = unknown_owner(applied, names, shapes, bound, factories=True)
            match = None if unknown is None else (unknown[0], f"`{dotted(applied)}`: {unknown[1]}")
    if match is None:
        return None, ""
    if match[0].wire == "replace":  # `function_tool(f)`: only the decorator line is swapped
        shown = dotted(func.func if isinstance(func, cst.Call) else func)
        return match[0], (
            f"`{shown}(...)` applies the decorator by a call, which migrate does not "
            "rewrite: put the decorator on the function, or wrap it by hand"
        )
    if match[0].wire != "under":
        return None, ""
    return match


def references(
    tree: cst.Module, functions: Iterable[cst.FunctionDef]
) -> dict[cst.FunctionDef, list[cst.CSTNode]]:
    """What refers to each function by name in the module, by LibCST's scopes.

    A local of the same name in another function (`log = []`), an attribute
    (`repo.git.status()`) or a keyword is not the function. Another binding of the name
    in the function's own scope counts as a use: which one a call gets is not known.
    Another of `functions` does not (a tool defined in each branch of an `if`).
    """
    from libcst.metadata import ScopeProvider

    scopes = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ScopeProvider)
    functions = list(functions)
    tools = {id(f) for f in functions}
    found: dict[cst.FunctionDef, list[cst.CSTNode]] = {}
    for function in functions:
        scope = scopes.get(function)
        uses: list[cst.CSTNode] = []
        if scope is None:
            uses.append(function)  # unknown: treat as used
        else:
            for assignment in scope.assignments[function.name.value]:
                if id(getattr(assignment, "node", None)) not in tools:
                    uses.append(function)
                uses += [access.node for access in assignment.references]
        found[function] = uses
    return found


def _block_calls(
    tree: cst.Module, names: ModuleNames, imported: Mapping[str, str] | None
) -> Iterator[tuple[cst.Call, dict[str, str | None]]]:
    """Every call of each scoped block (a nested function's body is a block of its own),
    with the names bound in that block."""
    for body, bound in scoped_blocks(tree, names, imported):
        stack: list[cst.CSTNode] = [s for s in body if not isinstance(s, cst.FunctionDef)]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef):
                continue
            stack += children(node)
            if isinstance(node, cst.Call):
                yield node, bound
