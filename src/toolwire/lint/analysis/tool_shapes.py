"""Which functions are tools of a preset's shape (`[[function-tools]]`, `[[class-tools]]`)
and what of their return value their framework sends: a part of the module facts."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from typing import NamedTuple

from toolwire.lint.analysis.names import (
    ClassInfo,
    Matcher,
    Names,
    bound_names,
    class_matcher,
    local_bases,
    matches,
    module_level,
)
from toolwire.lint.analysis.tool_lists import Reader, ToolLists, readers
from toolwire.lint.model import Model


class ToolShapeFacts:
    """`ModuleFacts`' answers about tool shapes; it sets these attributes."""

    names: Names
    classes: dict[str, ClassInfo]
    _tree: ast.Module
    _shapes: _ToolShapes
    _instances: dict[str, str | None] | None
    _local: dict[int, dict[str, str | None]]  # a nested function -> instances around it
    _enclosing: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, dict[str, str | None]]]
    _handed: frozenset[int] | None
    _handed_local: frozenset[int] | None
    _pair_classes: dict[str, bool]
    _listed_by: dict[int, str] | None = None  # a function handed to a listed call -> why

    def returns_to_wire(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None, value: ast.expr
    ) -> ast.expr | None:
        """The part of what `node` returns (`value`) that a framework sends, or None.

        It is sent when `node` is a tool of one of the presets' shapes (`[[function-tools]]`,
        `[[class-tools]]`), not wrapped by a toolwire adapter, and `value` is not one of the
        framework's own result types (the framework sends only their wire field). A tool
        set up as `content-and-artifact` returns a pair: only its first item is sent."""
        if not self._sends(node, cls, value):
            return None
        if not self._pairs(node, cls):
            return value
        if isinstance(value, ast.Tuple) and value.elts:
            return value.elts[0]
        return None  # a pair built elsewhere: which part is which is not known here

    def pairs_tool(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
    ) -> bool:
        """Is `node` set up as a content-and-artifact tool (whether it is a tool at all is
        `returns_to_wire`'s to say)? Asked of every function: the class's part is kept."""
        if not self._shapes.pairs:
            return False
        if cls is not None:
            known = self._pair_classes.get(cls.qualname)
            if known is None:
                known = self._pair_classes[cls.qualname] = self._pair_class(cls)
            if known:
                return True
        return self._pairs(node, None)

    def _pairs(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None) -> bool:
        """Is the tool set up to return (content, artifact)? By a decorator keyword
        (`@tool(response_format="content_and_artifact")`) or a class attribute."""
        wanted = self._shapes.pairs
        if not wanted:
            return False
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call):
                for keyword in decorator.keywords:
                    if any(
                        keyword.arg == k
                        and isinstance(keyword.value, ast.Constant)
                        and keyword.value.value == v
                        for k, v in wanted
                    ):
                        return True
        return cls is not None and self._pair_class(cls)

    def _pair_class(self, cls: ClassInfo) -> bool:
        """A class attribute sets its tools up as content-and-artifact."""
        wanted = self._shapes.pairs
        for statement in cls.node.body:
            target: ast.expr | None = None
            given: ast.expr | None = None
            if isinstance(statement, ast.AnnAssign):
                target, given = statement.target, statement.value
            elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target, given = statement.targets[0], statement.value
            if (
                isinstance(target, ast.Name)
                and isinstance(given, ast.Constant)
                and any(target.id == k and given.value == v for k, v in wanted)
            ):
                return True
        return False

    def _sends(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None, value: ast.expr
    ) -> bool:
        return self.is_shape_tool(node, cls) and not self._native(node, value)

    def is_shape_tool(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
    ) -> bool:
        """Is `node` a tool of one of the presets' shapes, not wrapped by a toolwire adapter
        (what migrate finds, from the same preset data)?"""
        shapes = self._shapes
        if not shapes.any:
            return False
        tool = False
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            dotted = self.names.qualify(target)
            if isinstance(target, ast.Attribute):
                # `@mcp.tool()` where `mcp = FastMCP(...)`: the instance's class, not its name
                owner = self._instance_of(target.value, node)
                dotted = f"{owner}.{target.attr}" if owner else dotted
            if dotted is not None and matches(dotted, shapes.adapters):
                return False
            tool = tool or (dotted is not None and matches(dotted, shapes.callables))
        if not tool and cls is None:
            tool = id(node) in self._handed_functions() or id(node) in self._handed_locally()
        elif not tool and cls is not None:
            tool = self._is_tool_method(node, cls)
        return tool

    def listed_reason(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
    ) -> str:
        """Why `node`, a tool of a `[[listed-tools]]` shape, is migrated by hand ("" when
        it is none): a handler under `@server.call_tool()` on a known instance, or a
        module-level function handed to a call that builds a tool by hand
        (`FunctionTool(..., on_invoke_tool=run)`)."""
        shapes = self._shapes
        for decorator in node.decorator_list if shapes.listed_decorators else ():
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if isinstance(target, ast.Attribute):
                owner = self._instance_of(target.value, node)
                for matcher, reason in shapes.listed_decorators if owner else ():
                    if matches(f"{owner}.{target.attr}", matcher):
                        return reason
        if cls is not None or not shapes.listed_calls:
            return ""
        if self._listed_by is None:
            functions = {
                s.name: s
                for s in module_level(self._tree.body)
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            found: dict[int, str] = {}
            for call in ast.walk(self._tree):
                dotted = self.names.qualify(call.func) if isinstance(call, ast.Call) else None
                for matcher, reason in shapes.listed_calls if dotted else ():
                    if not matches(dotted or "", matcher):
                        continue
                    assert isinstance(call, ast.Call)
                    for value in [*call.args, *(k.value for k in call.keywords)]:
                        if isinstance(value, ast.Name) and value.id in functions:
                            found.setdefault(id(functions[value.id]), reason)
            self._listed_by = found
        return self._listed_by.get(id(node), "")

    def _is_tool_method(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo) -> bool:
        for base in self._ancestors(cls):
            if matches(f"{base}.{node.name}", self._shapes.methods):
                return True
            for bases, attribute in self._shapes.listing:
                if matches(base, bases) and node.name in self._listed(cls, attribute):
                    return True
        return False

    def _native(self, node: ast.FunctionDef | ast.AsyncFunctionDef, value: ast.expr) -> bool:
        """`value` is built as, or the function is declared to return, a result type that
        a preset names (`ToolReturn`, `TextContent`): its framework takes it whole."""
        native = self._shapes.native
        if not native[0]:
            return False
        if isinstance(value, ast.Call):
            dotted = self.names.qualify(value.func)
            if dotted is not None and matches(dotted, native):
                return True
        for part in ast.walk(node.returns) if node.returns is not None else ():
            if isinstance(part, ast.Name | ast.Attribute):
                dotted = self.names.qualify(part)
                if dotted is not None and matches(dotted, native):
                    return True
        return False

    def _instance_of(
        self, expr: ast.expr, where: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    ) -> str | None:
        """The class a name is bound to by a call or an annotation, when it is one whose
        instances make tools (bound twice to different things: None): in a function that
        encloses `where` (`def build(): mcp = FastMCP(...)`), else at the module level."""
        if not isinstance(expr, ast.Name) or not self._shapes.instances[0]:
            return None
        if self._instances is None:
            self._instances = {
                n: t for n, t in self._bound_in(self._tree.body).items() if t is not None
            }
            self._local = {}
            self._enclosing = []
            self._enclose(self._tree.body, {})
        if where is not None and id(where) in self._local:
            local = self._local[id(where)]
            if expr.id in local:
                return local[expr.id]
        return self._instances.get(expr.id)

    def _aliases(self) -> dict[str, str | None]:
        # `ServerFactory = FastMCP` (in a `try` too): a class by another name.
        aliases: dict[str, str | None] = {}
        for statement in module_level(self._tree.body):
            # `= None`, the fallback of a failed import, is no other binding.
            if isinstance(statement, ast.Assign) and isinstance(
                statement.value, ast.Name | ast.Attribute
            ):
                alias = self.names.qualify(statement.value)
                for name in (n for t in statement.targets for n in bound_names(t)):
                    aliases[name] = alias if aliases.get(name, alias) == alias else None
        return aliases

    def _bound_in(
        self, body: list[ast.stmt], params: ast.arguments | None = None
    ) -> dict[str, str | None]:
        """Names a block binds to a tool-making instance (None: to something else)."""
        aliases = self._aliases()
        bound: dict[str, str | None] = {}
        for statement in module_level(body):
            names: list[str] = []
            target: str | None = None
            if isinstance(statement, ast.Assign):
                names = [n for t in statement.targets for n in bound_names(t)]
                value = statement.value
                target = self.names.qualify(value.func) if isinstance(value, ast.Call) else None
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                    target = aliases.get(value.func.id) or target
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                names = [statement.target.id]
                target = self._annotated(statement.annotation)
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = [statement.name]
            for name in names:
                bound[name] = target if bound.get(name, target) == target else None
        for arg in [*params.posonlyargs, *params.args, *params.kwonlyargs] if params else ():
            bound[arg.arg] = self._annotated(arg.annotation) if arg.annotation else None
        return {
            n: (t if t is not None and matches(t, self._shapes.instances) else None)
            for n, t in bound.items()
        }

    def _annotated(self, annotation: ast.expr) -> str | None:
        if isinstance(annotation, ast.Subscript):  # `Agent[Deps, str]`
            annotation = annotation.value
        return self.names.qualify(annotation)

    def _enclose(self, body: list[ast.stmt], outer: dict[str, str | None]) -> None:
        """Record, for each function defined in a function, the instances bound in the
        functions around it (`def register(mcp: FastMCP)` too)."""
        for statement in module_level(body):
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = {**outer, **self._bound_in(statement.body, statement.args)}
                for nested in module_level(statement.body):
                    if isinstance(nested, ast.FunctionDef | ast.AsyncFunctionDef):
                        self._local[id(nested)] = inner
                if any(v is not None for v in inner.values()):
                    self._enclosing.append((statement, inner))
                self._enclose(statement.body, inner)

    def _handed_functions(self) -> frozenset[int]:
        """Functions handed to a tool factory (`FunctionTool.from_defaults(fn=f)`): those of
        the module and of its functions (`def make(): async def search(...): ...;
        return [FunctionTool(search)]`) whose name is defined once, as migrate finds them."""
        if self._handed is None:
            shapes = self._shapes
            found: set[int] = set()
            lists = ToolLists(self._tree, shapes.readers) if shapes.readers else None
            if shapes.factories[0] or shapes.list_factories:
                functions = _functions_named_once(self._tree.body)
                for call in ast.walk(self._tree):
                    if not isinstance(call, ast.Call):
                        continue
                    dotted = self.names.qualify(call.func)
                    if dotted is None and isinstance(call.func, ast.Attribute):
                        owner = self._instance_of(call.func.value)
                        if owner:  # `mcp.add_tool(f)` where `mcp = FastMCP()`
                            dotted = f"{owner}.{call.func.attr}"
                    for name in _handed(call, dotted, shapes, lists) if dotted is not None else ():
                        if name in functions:
                            found.add(id(functions[name]))
            self._handed = frozenset(found)
        return self._handed

    def _handed_locally(self) -> frozenset[int]:
        """Functions defined in a function and handed there to a method of an instance
        bound around them (`srv = FastMCP(); srv.add_tool(f)`)."""
        if self._handed_local is not None:
            return self._handed_local
        if not (self._shapes.instances[0] and self._shapes.factories[0]):
            self._handed_local = frozenset()
            return self._handed_local
        if self._instances is None:
            self._instance_of(ast.Name("_"))
        found: set[int] = set()
        for function, inner in self._enclosing:
            defined = {
                s.name: s
                for s in module_level(function.body)
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            for call in ast.walk(function):
                if not (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name)
                    and inner.get(call.func.value.id)
                ):
                    continue
                dotted = f"{inner[call.func.value.id]}.{call.func.attr}"
                # a module's list constant names module-level functions: not followed here
                for name in _handed(call, dotted, self._shapes, None):
                    if name in defined:
                        found.add(id(defined[name]))
        self._handed_local = frozenset(found)
        return self._handed_local

    def _listed(self, cls: ClassInfo, attribute: str) -> frozenset[str]:
        """The method names a class (or a local base) lists in `attribute`, read as
        LlamaIndex reads `spec_functions`: names and (sync, async) pairs, literals only."""
        stack, seen = [cls], set()
        while stack:
            info = stack.pop()
            if info.qualname in seen:
                continue
            seen.add(info.qualname)
            for statement in info.node.body:
                if isinstance(statement, ast.Assign):
                    named = any(
                        isinstance(t, ast.Name) and t.id == attribute for t in statement.targets
                    )
                elif isinstance(statement, ast.AnnAssign):
                    named = (
                        isinstance(statement.target, ast.Name) and statement.target.id == attribute
                    )
                else:
                    continue
                if named:
                    return _literal_names(statement.value)
            stack.extend(self.classes[b] for b in local_bases(info) if b in self.classes)
        return frozenset()

    def _ancestors(self, cls: ClassInfo) -> Iterator[str]:
        seen: set[str] = set()
        stack = list(cls.bases)
        while stack:
            base = stack.pop()
            if base is None or base in seen:
                continue
            seen.add(base)
            yield base
            local = self.classes.get(base.rpartition(".")[2])
            if local is not None and local.qualname == base:
                stack.extend(local.bases)


class _ToolShapes(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """The presets' tool shapes as matchers, for `returns_to_wire`."""

    callables: Matcher  # decorators, and `Class.attribute` of an instance's decorator
    methods: Matcher  # `Base.method` of class tools
    listing: tuple[tuple[Matcher, str], ...]  # bases whose attribute lists the tool methods
    instances: Matcher  # classes whose instances' attributes are decorators
    factories: Matcher
    factory_keywords: frozenset[str]
    # factories that take lists of functions (`Agent(tools=[f])`), with those arguments
    list_factories: tuple[tuple[Matcher, tuple[tuple[int | None, str], ...]], ...]
    adapters: Matcher  # toolwire's adapters: a tool under one returns a ToolResult
    native: Matcher  # the presets' own result types, which their tools may return
    pairs: tuple[tuple[str, str], ...]  # `content-and-artifact` (keyword, value)
    readers: tuple[Reader, ...]  # the tool list arguments, for `ToolLists`
    # `[[listed-tools]]`: `Class.attribute` decorators, and calls, each with its reason
    listed_decorators: tuple[tuple[Matcher, str], ...]
    listed_calls: tuple[tuple[Matcher, str], ...]

    @property
    def any(self) -> bool:
        return bool(
            self.callables[0]
            or self.methods[0]
            or self.listing
            or self.factories[0]
            or self.list_factories
        )


@functools.cache
def tool_shapes(model: Model) -> _ToolShapes:
    functions, classes = model.function_tools, model.class_tools
    return _ToolShapes(
        class_matcher(
            (
                *(d for f in functions for d in sorted(f.decorators)),
                *(
                    f"{i}.{a}"
                    for f in functions
                    for i in sorted(f.instances)
                    for a in sorted(f.attributes)
                ),
            )
        ),
        class_matcher(
            tuple(f"{b}.{m}" for c in classes for b in sorted(c.bases) for m in c.methods)
        ),
        tuple(
            (class_matcher(tuple(sorted(c.bases))), c.methods_from)
            for c in classes
            if c.methods_from
        ),
        class_matcher(
            (
                *(i for f in functions for i in sorted(f.instances)),
                *(i for t in model.listed_tools for i in sorted(t.instances)),
            )
        ),
        class_matcher(
            tuple(n for f in functions if not f.factory_lists for n in sorted(f.factories))
        ),
        frozenset(k for f in functions for k in f.factory_keywords),
        tuple(
            (class_matcher(tuple(sorted(f.factories))), f.factory_lists)
            for f in functions
            if f.factory_lists and f.factories
        ),
        class_matcher(tuple(f.adapter for f in functions)),
        class_matcher(tuple(n for t in model.result_types if t.framework for n in t.names)),
        tuple((k, v) for k, _, v in (p.partition("=") for p in model.content_and_artifact)),
        tuple(readers((f.factories, f.factory_lists) for f in functions if f.factory_lists)),
        tuple(
            (
                class_matcher(tuple(f"{i}.{a}" for i in sorted(t.instances) for a in t.attributes)),
                t.reason,
            )
            for t in model.listed_tools
            if t.instances and t.attributes
        ),
        tuple(
            (class_matcher(tuple(sorted(t.calls))), t.reason) for t in model.listed_tools if t.calls
        ),
    )


def _functions_named_once(
    body: list[ast.stmt],
) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions of the module's blocks and of its functions' (not of classes), by name,
    where the name is defined once: which of two is handed over is not known."""
    found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    blocks = [body]
    while blocks:
        for statement in module_level(blocks.pop()):
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(statement.name, []).append(statement)
                blocks.append(statement.body)
    return {name: defs[0] for name, defs in found.items() if len(defs) == 1}


def _handed(call: ast.Call, dotted: str, shapes: _ToolShapes, lists: ToolLists | None) -> list[str]:
    """The names `call` (of `dotted`) hands to a tool factory: its first argument or one of
    `factory-keywords`, or the items of a list of `factory-lists` (`Agent(tools=[f])`),
    written in the call or a constant `lists` proves fixed (`tools=TOOLS`)."""
    given: list[str] = []
    for matcher, specs in shapes.list_factories:
        if not matches(dotted, matcher):
            continue
        for at, name in specs:
            values = [k.value for k in call.keywords if k.arg == name]
            if at is not None and len(call.args) > at:
                if not any(isinstance(a, ast.Starred) for a in call.args[: at + 1]):
                    values.append(call.args[at])
            for value in values:
                if lists is not None:
                    given += lists.expand(value)[0]
                elif isinstance(value, ast.List | ast.Tuple):
                    given += [e.id for e in value.elts if isinstance(e, ast.Name)]
    if matches(dotted, shapes.factories):
        handed = [k.value for k in call.keywords if k.arg in shapes.factory_keywords]
        if call.args and not isinstance(call.args[0], ast.Starred):
            handed.append(call.args[0])
        given += [v.id for v in handed if isinstance(v, ast.Name)]
    return given


def _literal_names(value: ast.expr | None) -> frozenset[str]:
    if not isinstance(value, ast.List | ast.Tuple):
        return frozenset()
    found: set[str] = set()
    for element in value.elts:
        parts = element.elts if isinstance(element, ast.Tuple) else [element]
        found.update(
            p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)
        )
    return frozenset(found)
