"""`ToolReturns`: the plan of one module's tool returns, then the rewrite it asks for.

Kept apart from the LibCST command class (`command.py`) so that `toolwire migrate`
does not pay for importing `libcst.codemod` and its matchers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from toolwire.lint.codemods.crossfile import CrossFile
from toolwire.lint.codemods.imports import (
    ResultRef,
    adapter_reference,
    attribute_chain,
    insert_imports,
    result_reference,
)
from toolwire.lint.codemods.names import ModuleNames, def_lines, dotted
from toolwire.lint.codemods.reports import MethodEvent, ToolReturnsReport
from toolwire.lint.codemods.tool_returns.decorators import passing_decorators, unknown_decorator
from toolwire.lint.codemods.tool_returns.discovery import (
    ListConstants,
    decorated_methods,
    factory_tools,
    function_tools,
    listed_calls,
    listed_handlers,
    listed_methods,
    references,
    unfollowed_tools,
)
from toolwire.lint.codemods.tool_returns.holds import (
    guard_wiring,
    hold_families,
    hold_in_module,
    inherited_str_uses,
    record_member,
    used_as_str,
)
from toolwire.lint.codemods.tool_returns.rewrite import Edits, Rewriter, SwapCalls, mark_path
from toolwire.lint.codemods.tool_returns.scan import Scan, is_declaration
from toolwire.lint.codemods.tool_returns.structure import (
    ToolClass,
    ToolMethod,
    base_exprs,
    classes_in,
    dotted_name,
    functions_in,
    is_self,
    is_subscripted,
    is_super,
    lineage_of,
)
from toolwire.lint.config import Config
from toolwire.lint.engine import module_name
from toolwire.lint.model import ClassShape, FunctionShape, Shapes, shapes_for

__all__ = ["ToolReturns"]


_PENDING = "pending:"  # an `unknown:` another round of pass one may settle
_STR = frozenset({"str", "builtins.str"})


def _imports(node: cst.CSTNode | None, local: str, target: str) -> bool:
    """`node` is a `from m import n` that binds `local` to `target` (`m.n`)."""
    if not isinstance(node, cst.ImportFrom) or node.relative or node.module is None:
        return False
    if isinstance(node.names, cst.ImportStar):
        return False
    module, _, name = target.rpartition(".")
    if dotted(node.module) != module:
        return False
    for alias in node.names:
        bound = alias.asname.name if alias.asname is not None else alias.name
        if (
            isinstance(alias.name, cst.Name)
            and alias.name.value == name
            and isinstance(bound, cst.Name)
            and bound.value == local
        ):
            return True
    return False


# A literal that is never a str: `ToolResult.text(...)` of it would raise where the
# framework used to stringify it. Tuples are left to the review: some frameworks take a
# `(content, artifact)` pair.
_NOT_STR: dict[type[cst.CSTNode], str] = {
    cst.Dict: "a dict",
    cst.DictComp: "a dict",
    cst.List: "a list",
    cst.ListComp: "a list",
    cst.Set: "a set",
    cst.SetComp: "a set",
    cst.Integer: "a number",
    cst.Float: "a number",
    cst.Imaginary: "a number",
    cst.Lambda: "a function",
}
_DECLARATION_ONLY = (
    "its body is only a docstring, `...` or `pass`: it returns None, which the adapter would reject"
)


class ToolReturns:
    """One migration plan per module; `run()` may be called for module after module."""

    def __init__(self, config: Config, cross: CrossFile | None = None) -> None:
        self.config = config
        self.cross = cross or CrossFile()
        self.reset("", None)

    def reset(self, filename: str, source: str | None) -> None:
        self.filename = filename
        self.source = source  # the module's text, when the caller has it (saves a codegen)
        self.report = ToolReturnsReport()
        self.warnings: list[str] = []
        self._targets: dict[cst.FunctionDef, ToolMethod] = {}
        self._wrap: dict[cst.Return, bool] = {}
        self._kinds: dict[int, str] = {}
        self._path: set[int] = set()  # ids of the statements and blocks above a target
        self._ref = ""
        self._marked: set[cst.Return] = set()  # errors by their text (`error-markers`)
        self._bases: dict[cst.ClassDef, tuple[int, ClassShape]] = {}  # index -1: put first
        self._adapters: dict[str, ResultRef] = {}  # adapter dotted name -> how to spell it
        self._local_import: set[cst.FunctionDef] = set()
        self._passing: frozenset[str] = frozenset()  # this module's pass-through decorators
        # per tool method, the names its own and enclosing (non-module) scopes bind
        self._locals: dict[cst.FunctionDef, frozenset[str]] = {}
        self._names = ModuleNames(None, False)
        self._factories: list[tuple[cst.Call, FunctionShape]] = []
        self._factory_of: dict[cst.Call, cst.FunctionDef] = {}

    def run(self, tree: cst.Module, filename: str = "", source: str | None = None) -> cst.Module:
        self.reset(filename, source)
        return self.transform(tree)

    @property
    def adapted(self) -> bool:
        """An adapter (a base, a decorator, a factory) was put in place: the rewrite did
        more than wrap returns and swap annotations."""
        return bool(self._adapters)

    # -- planning --------------------------------------------------------------------------

    def transform(self, tree: cst.Module) -> cst.Module:
        config = self.config
        filename = self.filename or ""
        path = Path(filename) if filename else None
        module = module_name(path, config) if path is not None else None
        names = ModuleNames.of(tree, module, path is not None and path.name == "__init__.py")
        self._names = names
        classes = list(classes_in(tree.body, ""))
        self._plan(tree, names, classes, config)
        if not self._targets:
            return tree
        wraps = bool(self._wrap)
        taken = frozenset().union(*(self._locals.get(n, ()) for n in self._targets))
        ref = result_reference(names, config.result_classes[0], runtime=wraps, taken=taken)
        self._ref = ref.expression
        adapters = {e.shape.adapter for e in self._targets.values() if e.shape is not None}
        for adapter in sorted(adapters):
            self._adapters[adapter] = adapter_reference(names, adapter)
        mark_path(tree, self._targets, self._path)
        edits = Edits(
            config.result_classes[0],
            self._ref,
            self._targets,
            self._path,
            self._wrap,
            self._kinds,
            self._adapters,
            self._bases,
            self._local_import,
        )
        tree = Rewriter(edits).rewrite(tree)
        swaps: dict[cst.Call, cst.Attribute] = {}
        for call, shape in self._factories:
            if self._targets.get(self._factory_of[call]) is None:
                continue  # its function was skipped: the call stays the framework's
            factory = attribute_chain(self._adapters[shape.adapter].expression)
            assert isinstance(call.func, cst.Attribute)
            swaps[call] = call.func.with_changes(value=factory)
        if swaps:
            tree = tree.visit(SwapCalls(swaps))
        added = [r.add_import for r in (ref, *self._adapters.values()) if r.add_import]
        return insert_imports(tree, added, names.module) if added else tree

    def _plan(
        self, tree: cst.Module, names: ModuleNames, classes: list[ToolClass], config: Config
    ) -> None:
        local = {c.node.name.value: c for c in classes if c.top_level}
        module = names.module
        results = frozenset(config.result_classes)
        self._passing = passing_decorators(tree.body)
        shapes = shapes_for(config.presets)
        constants = ListConstants(tree, self.source, shapes.functions)
        planned, unlisted, listed = self._class_tools(classes, local, names, shapes, results)
        methods = frozenset(config.tool_methods) | frozenset(shapes.methods) | listed
        for entry in planned:
            assert entry.cls is not None
            why = self.cross.blocked.get(dotted_name(module, entry.cls.qualname))
            if why and entry.status == "migrate":
                entry.status, entry.reason = "skip", why
        hold_families(planned, self.cross, module, self.filename or "<unknown>")
        planned += self._function_tools(tree, names, shapes, local, results, constants)
        used_as_str(planned, classes, self.source)
        if module and self.cross.classes:
            for cls, use in inherited_str_uses(classes, local, frozenset(shapes.methods)):
                self.report.kept.setdefault(
                    dotted_name(module, cls.qualname),
                    f"{cls.qualname} uses the `str` of the inherited `{use}`",
                )
        self._scope_names(tree, planned, names)
        self._settle(planned, local, names, results, methods)
        wanted_names = methods | {e.node.name.value for e in planned if e.cls is None}
        lines = self._lines(tree, planned, wanted_names)
        while hold_in_module(planned, local, names, module, self.filename or "<unknown>", lines):
            self._settle(planned, local, names, results, methods)
        self._wire(planned, local, names)
        if unlisted:
            self._record_unlisted(tree, unlisted, module)
        skipped: list[tuple[cst.CSTNode, str, str, str]] = []
        if shapes.functions:
            for cls, method, why in decorated_methods(classes, names, shapes.functions):
                skipped.append((method.name, cls.qualname, method.name.value, why))
        if shapes.listed:
            imported = self._imported_instances(names)
            for handler, why in listed_handlers(tree, names, shapes.listed, imported):
                skipped.append((handler.name, "", handler.name.value, why))
            built = listed_calls(tree, names, shapes.listed)
            skipped += [(c, "", shown, why) for c, shown, why in built]
        if shapes.functions:
            unfollowed = unfollowed_tools(tree, names, shapes.functions, constants=constants)
            skipped += [(c, "", shown, why) for c, shown, why in unfollowed]
        self._record_skipped(tree, skipped)
        self._record(planned, lines, module)

    def _class_tools(
        self,
        classes: list[ToolClass],
        local: dict[str, ToolClass],
        names: ModuleNames,
        shapes: Shapes,
        results: frozenset[str],
    ) -> tuple[list[ToolMethod], list[tuple[ToolClass, str]], frozenset[str]]:
        """The tool methods of the module's classes, judged; the classes whose tool list
        is not literal, with why; and the method names those lists add."""
        module = names.module
        generic = frozenset(self.config.tool_methods)
        memo: dict[tuple[frozenset[str], str], bool] = {}

        def derives(
            cls: ToolClass, bases: frozenset[str], seen: frozenset[str] = frozenset()
        ) -> bool:
            key = (bases, cls.qualname)
            if key in memo:
                return memo[key]
            own = f"{module}.{cls.qualname}" if module else cls.qualname
            verdict = own in bases
            for base in base_exprs(cls.node):
                if verdict:
                    break
                target = names.resolve(base, local)
                verdict = target in bases
                name = base.value if isinstance(base, cst.Name) else None
                if not verdict and name in local and name not in seen and name != cls.qualname:
                    verdict = derives(local[name], bases, seen | {cls.qualname})
                elif not verdict and target is not None and name not in local:
                    verdict = self.cross.derives(target, bases)
            memo[key] = verdict
            return verdict

        tool_bases = frozenset(self.config.tool_bases)
        planned: list[ToolMethod] = []
        unlisted: list[tuple[ToolClass, str]] = []
        methods: frozenset[str] = frozenset()
        for cls in classes:
            wanted: dict[str, ClassShape | None] = {}
            if generic and (not tool_bases or derives(cls, tool_bases)):
                wanted = dict.fromkeys(generic)
            for shape in shapes.classes:
                if derives(cls, shape.bases):
                    wanted.update(dict.fromkeys(shape.methods, shape))
                    if shape.methods_from:
                        listed, unknown = listed_methods(cls, local, names, shape)
                        if unknown:
                            unlisted.append((cls, unknown))
                        wanted.update(dict.fromkeys(listed, shape))
                        methods |= frozenset(listed)
            for statement in cls.node.body.body if wanted else ():
                if isinstance(statement, cst.FunctionDef) and statement.name.value in wanted:
                    entry = ToolMethod(statement, cls, shape=wanted[statement.name.value])
                    cls.methods.setdefault(statement.name.value, entry)
                    planned.append(entry)
                    self._judge(entry, names, local, results)
        return planned, unlisted, methods

    def _function_tools(
        self,
        tree: cst.Module,
        names: ModuleNames,
        shapes: Shapes,
        local: dict[str, ToolClass],
        results: frozenset[str],
        constants: ListConstants,
    ) -> list[ToolMethod]:
        """The function tools: decorated by a framework, or handed to its factory."""
        planned: list[ToolMethod] = []
        imported = self._imported_instances(names)
        found = function_tools(tree, names, shapes.functions, imported)
        handing = (
            factory_tools(tree, names, shapes.functions, imported, constants)
            if shapes.functions
            else []
        )
        decorated = {f for f, *_ in found}
        # `@tool` marks a function that `mcp.add_tool(f)` then registers: no other use.
        handed = {
            id(arg.value)
            for function, _, calls, _ in handing
            if function in decorated
            for call in calls
            for arg in call.args
            if isinstance(arg.value, cst.Name) and arg.value.value == function.name.value
        }
        # `@mcp.tool()` and `@agent.tool` hand the function back: a direct call of it in
        # this module would get what the adapter returns.
        kept = [f for f, shape, _, _ in found if shape.wire == "under"]
        called = references(tree, kept) if kept else {}
        for function, fshape, index, reason in found:
            entry = ToolMethod(function, None, shape=fshape, decorator=index)
            planned.append(entry)
            name = function.name.value
            uses = [u for u in called.get(function, ()) if id(u) not in handed]
            if not reason and fshape.wire == "under" and uses:
                reason = (
                    f"`{name}` is also used in this module, where it would get "
                    "what the adapter returns"
                )
            if not reason and is_declaration(function.body):
                reason = _DECLARATION_ONLY
            if reason:
                entry.status, entry.reason = "skip", reason
            else:
                self._judge(entry, names, local, results)
        for function, fshape, calls, reason in handing:
            if function in decorated:
                continue  # one entry: the decorator's
            entry = ToolMethod(function, None, shape=fshape)
            planned.append(entry)
            for call in calls if fshape.wire == "factory" else ():
                self._factories.append((call, fshape))
                self._factory_of[call] = function
            if reason:
                entry.status, entry.reason = "skip", reason
            else:
                self._judge(entry, names, local, results)
        return planned

    def _imported_instances(self, names: ModuleNames) -> dict[str, str]:
        """Names this module imports that another module of the run binds to a framework
        instance (`from app.server import mcp`): name -> the instance's class."""
        found: dict[str, str] = {}
        for local, bindings in names.bindings.items():
            binding = next((b for b in bindings if not b.type_checking), None)
            if binding is not None and not binding.is_module:
                cls = self.cross.instance_of(binding.target)
                if cls is not None:
                    found[local] = cls
        return found

    def _record_skipped(
        self, tree: cst.Module, found: Sequence[tuple[cst.CSTNode, str, str, str]]
    ) -> None:
        """Report what migrate leaves as it is, each (the node its line is read from, class,
        name, why): methods under a framework's marking decorator, the handlers of
        `listed-tools`, and calls whose tools it cannot read."""
        if not found:
            return
        positions = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(PositionProvider)
        path = self.filename or "<unknown>"
        for node, owner, name, why in found:
            line = positions[node].start.line if node in positions else 0
            event = MethodEvent(path, line, owner, name, why)
            self.report.skipped.append(event)
            self.warnings.append(f"line {line}: skipped {event.name}: {why}")

    def _record_unlisted(
        self, tree: cst.Module, unlisted: list[tuple[ToolClass, str]], module: str | None
    ) -> None:
        """Report the classes whose tool list is not known: skipped, and kept as they are."""
        path = self.filename or "<unknown>"
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
        for cls, unknown in unlisted:
            line = positions[cls.node].start.line if cls.node in positions else 0
            attribute = unknown.partition("`")[2].partition("`")[0]
            event = MethodEvent(path, line, cls.qualname, attribute, unknown)
            self.report.skipped.append(event)
            self.warnings.append(f"line {line}: skipped {event.name}: {unknown}")
            if module:  # its tools are unknown: a base of another module stays as it is
                dotted = dotted_name(module, cls.qualname)
                self.report.kept.setdefault(dotted, unknown)

    def _record(
        self,
        planned: list[ToolMethod],
        lines: Mapping[cst.FunctionDef, int],
        module: str | None,
    ) -> None:
        """Report each planned method (for the run and the other files), and keep the
        targets of the rewrite."""
        path = self.filename or "<unknown>"
        for entry in planned:
            line = lines.get(entry.node, 0)
            event = MethodEvent(path, line, entry.owner, entry.node.name.value, entry.reason)
            if entry.cls is not None and module:
                key = f"{dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
                self.report.results[key] = entry.status != "skip"
                if (
                    entry.status == "skip"
                    and isinstance(entry.shape, ClassShape)
                    and not entry.pending
                ):
                    self.report.kept.setdefault(
                        key.rpartition(".")[0], f"{event.name}: {entry.reason}"
                    )
                if entry.status == "migrate" and isinstance(entry.shape, ClassShape):
                    self.report.wired.add(key.rpartition(".")[0])
            record_member(self.report, entry, event, self.cross, module)
            if entry.status == "skip":
                self.report.skipped.append(event)
                self.warnings.append(f"line {line}: skipped {event.name}: {entry.reason}")
                continue
            if entry.cls is not None:
                dotted_class = dotted_name(module, entry.cls.qualname)
                self.report.known_tools.add(dotted_class)
            if entry.status == "migrate":
                self.report.migrated.append(event)
                self._targets[entry.node] = entry
                if entry.shape is not None and entry.shape.local_import:
                    self._local_import.add(entry.node)

    def _judge(
        self,
        entry: ToolMethod,
        names: ModuleNames,
        local: dict[str, ToolClass],
        results: frozenset[str],
    ) -> None:
        annotation = entry.node.returns
        if annotation is None:
            entry.status, entry.reason = "skip", "has no return annotation"
            return
        target = _annotation_target(annotation.annotation, names, local)
        if target in results:
            entry.status = "already"
            return
        if target not in _STR or "str" in names.other:
            code = cst.Module([]).code_for_node(annotation.annotation)
            entry.status, entry.reason = "skip", f"annotated `-> {code}`, not `-> str`"
            return
        text = self.source
        scan = Scan.of(entry.node, yields_possible=text is None or "yield" in text)
        if scan.generator:
            entry.status, entry.reason = "skip", "is a generator (`yield`)"
        elif scan.bare:
            entry.status, entry.reason = "skip", scan.bare
        else:
            why = scan.none_path(entry.node)
            decorator = "" if why else unknown_decorator(entry, names, self._passing)
            if decorator:
                why = f"decorated by `{decorator}`, which may use the returned str"
            if why:
                entry.status, entry.reason = "skip", why
        entry.returns = scan.returns

    def _scope_names(self, tree: cst.Module, planned: list[ToolMethod], names: ModuleNames) -> None:
        """What each method to migrate binds in its own scope and the scopes around it
        (a parameter, a loop variable, a lazy import named `ToolResult`): the written
        `ToolResult.text(...)` and annotation must not name one of these."""
        entries = [e for e in planned if e.status == "migrate"]
        if not entries:
            return
        result = self.config.result_classes[0]
        module, _, name = result.rpartition(".")
        heads = {name, f"_{name}", module.partition(".")[0]}
        heads.update(
            local
            for local, bindings in names.bindings.items()
            if any(b.target.partition(".")[0] == module.partition(".")[0] for b in bindings)
        )
        text = self.source
        # a name not in the text at all needs no word search (a slow regex: no literal start)
        if text is not None and (
            not any(h in text for h in heads)
            or not re.search(
                r"\b(?:" + "|".join(re.escape(h) for h in sorted(heads)) + r")\b", text
            )
        ):
            return  # none of the names can be bound anywhere: no need for scopes
        from libcst.metadata import GlobalScope, ScopeProvider

        scopes = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ScopeProvider)
        for entry in entries:
            scope = scopes.get(entry.node.body)
            bound: set[str] = set()
            while scope is not None and not isinstance(scope, GlobalScope):
                bound.update(
                    a.name
                    for a in scope.assignments
                    if not _imports(getattr(a, "node", None), a.name, result)
                )
                scope = scope.parent
            if bound:
                self._locals[entry.node] = frozenset(bound)

    def _settle(
        self,
        planned: list[ToolMethod],
        local: dict[str, ToolClass],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> None:
        """Decide which returns are already results; repeat while skips change the answer."""
        markers = tuple(self.config.error_markers)
        changed = True
        while changed:
            changed = False
            self._wrap.clear()
            self._kinds.clear()
            self._marked.clear()
            for entry in planned:
                if entry.status != "migrate":
                    continue
                for node, in_except in entry.returns:
                    assert node.value is not None
                    kind = self._classify(node.value, entry, local, names, results, methods)
                    if kind.startswith("unknown:"):
                        entry.pending = kind.startswith(_PENDING)
                        entry.status, entry.reason = "skip", kind.removeprefix(_PENDING)[8:]
                        changed = True
                        break
                    if kind == "plain" and not in_except and _marked(node.value, markers):
                        self._marked.add(node)
                        in_except = True
                    if kind != "result":
                        self._wrap[node] = in_except
            changed = guard_wiring(planned, local) or changed
        self.report.text = sum(1 for e in self._wrap.values() if not e)
        self.report.error = sum(1 for e in self._wrap.values() if e)
        self.report.marked = len(self._marked)

    def _wire(
        self, planned: list[ToolMethod], local: dict[str, ToolClass], names: ModuleNames
    ) -> None:
        """Where each migrated class gets its adapter base: the framework's place, or first."""
        wired: dict[str, ClassShape] = {}
        for entry in planned:
            if entry.status == "migrate" and isinstance(entry.shape, ClassShape):
                assert entry.cls is not None
                wired.setdefault(entry.cls.qualname, entry.shape)
        for qualname, shape in wired.items():
            cls = next(e.cls for e in planned if e.cls is not None and e.cls.qualname == qualname)
            ancestors, _ = lineage_of(cls, local, skip_own=True)
            if any(wired.get(a.qualname) == shape for a in ancestors):
                continue  # it inherits the adapter from a class wired in this run
            if any(a in self.cross.wired for a in self._external_ancestors(cls, local, names)):
                continue  # ... from a class of another module wired in this run
            index = -1
            for position, arg in enumerate(cls.node.bases):
                if arg.keyword is None and not arg.star:
                    if names.resolve(arg.value, local) in shape.bases:
                        index = position
                        break
            self._bases[cls.node] = (index, shape)

    def _classify(
        self,
        value: cst.BaseExpression,
        entry: ToolMethod,
        local: dict[str, ToolClass],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> str:
        """`result`, `plain`, `mixed` (a ternary of both) or `unknown:<reason>`."""
        kind = self._kind(value, entry, local, names, results, methods)
        self._kinds[id(value)] = kind
        return kind

    def _kind(
        self,
        value: cst.BaseExpression,
        entry: ToolMethod,
        local: dict[str, ToolClass],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> str:
        if isinstance(value, cst.IfExp):
            kinds = {
                self._classify(v, entry, local, names, results, methods)
                for v in (value.body, value.orelse)
            }
            unknown = sorted(k for k in kinds if k.startswith("unknown:"))
            if unknown:
                return unknown[0]
            return kinds.pop() if len(kinds) == 1 else "mixed"
        if isinstance(value, cst.Await):
            value = value.expression
        literal = _NOT_STR.get(type(value))
        if literal is None and isinstance(value, cst.Name) and value.value in ("True", "False"):
            literal = "a bool"
        if literal is not None:
            return (
                f"unknown:returns {literal}, not a str, under `-> str`: `ToolResult.text` takes "
                "a str, so convert it as the framework did (often `str(...)`) by hand first"
            )
        if not isinstance(value, cst.Call):
            return "plain"
        func = value.func
        # A local of the result class's name is not the module's result class.
        shadowed = (dotted(func) or "").partition(".")[0] in self._locals.get(entry.node, ())
        if isinstance(func, cst.Attribute):
            owner = names.resolve(func.value, local)
            if owner in results and func.attr.value in ("text", "error") and not shadowed:
                return "result"
            called = func.attr.value
            cls = entry.cls
            if called in methods and cls is not None and is_self(func.value, entry):
                return self._method_kind(cls, called, local, skip_own=False)
            if called in methods and cls is not None and is_super(func.value):
                return self._method_kind(cls, called, local, skip_own=True)
            if called in methods and is_subscripted(func.value):
                return (
                    f"unknown:returns `...[...].{called}(...)`, a tool reached through a dict "
                    "of tools: cannot tell whether it returns a ToolResult after the migration"
                )
        elif names.resolve(func, local) in results and not shadowed:
            return "result"
        return "plain"

    def _method_kind(
        self, cls: ToolClass, name: str, local: dict[str, ToolClass], skip_own: bool
    ) -> str:
        owners, complete = lineage_of(cls, local, skip_own)
        for owner in owners:
            found = owner.methods.get(name)
            if found is not None:
                return "result" if found.status in ("migrate", "already") else "plain"
            if any(
                isinstance(s, cst.FunctionDef) and s.name.value == name
                for s in owner.node.body.body
            ):
                return "plain"  # defined in a class that is not a tool: it returns str
        if complete:
            return "plain"
        pending = False
        for ancestor in self._external_ancestors(cls, local, self._names):
            known = self.cross.results.get(f"{ancestor}.{name}")
            if known is not None:
                return "result" if known else "plain"
            pending = pending or ancestor in self.cross.classes
        via = "super()" if skip_own else "self"
        return (
            f"{_PENDING if pending else ''}unknown:returns `{via}.{name}(...)`, "
            "a tool method not defined in this module: "
            "cannot tell whether it returns a ToolResult after the migration"
        )

    def _external_ancestors(
        self, cls: ToolClass, local: dict[str, ToolClass], names: ModuleNames
    ) -> Iterator[str]:
        """The ancestors of `cls` in other modules, nearest first, as the index knows them."""
        lineage, _ = lineage_of(cls, local, skip_own=False)
        for owner in lineage:
            for base in base_exprs(owner.node):
                if isinstance(base, cst.Name) and base.value in local:
                    continue
                target = names.resolve(base, local)
                if target is not None:
                    yield target
                    yield from self.cross.ancestors(target)

    def _lines(
        self, tree: cst.Module, planned: list[ToolMethod], methods: Iterable[str]
    ) -> dict[cst.FunctionDef, int]:
        methods = frozenset(methods)
        if not planned:
            return {}
        text = self.source if self.source is not None else tree.code
        by_name = def_lines(text, methods)
        defs: dict[str, list[cst.FunctionDef]] = {}
        for node in functions_in(tree.body):
            if node.name.value in methods:
                defs.setdefault(node.name.value, []).append(node)
        if all(len(by_name.get(n, [])) == len(d) for n, d in defs.items()):
            return {node: by_name[n][i] for n, d in defs.items() for i, node in enumerate(d)}
        # A `def` inside a string fooled the line scan: pay for real positions.
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
        return {e.node: positions[e.node].start.line for e in planned if e.node in positions}


def _annotation_target(
    node: cst.BaseExpression, names: ModuleNames, local: dict[str, ToolClass]
) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix == "":
        try:
            node = cst.parse_expression(node.evaluated_value)  # type: ignore[arg-type]
        except (cst.ParserSyntaxError, TypeError):
            return None
    return names.resolve(node, local)


def _leading_text(value: cst.BaseExpression) -> str | None:
    """The literal text a string expression starts with (an f-string's first literal part)."""
    if isinstance(value, cst.SimpleString):
        evaluated = value.evaluated_value
        return evaluated if isinstance(evaluated, str) else None
    if isinstance(value, cst.ConcatenatedString):
        return _leading_text(value.left)
    if isinstance(value, cst.FormattedString):
        first = value.parts[0] if value.parts else None
        return first.value if isinstance(first, cst.FormattedStringText) else None
    return None


def _marked(value: cst.BaseExpression, markers: Sequence[str]) -> bool:
    """A returned string that starts with an error marker (a heuristic: `error-markers`)."""
    text = _leading_text(value)
    if not text:
        return False
    text = text.lstrip()
    for marker in markers:
        if text.startswith(marker):
            rest = text[len(marker) :]
            if not rest or not (rest[0].isalnum() or rest[0] == "_"):
                return True
    return False
