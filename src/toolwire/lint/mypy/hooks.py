"""The plugin: mypy's hooks, dispatched to the rules in `checks/`.

It holds no rule logic. `FilePlugin` is what mypy talks to: it finds each file's table
and keeps one `ToolwirePlugin` per table. That one reads the egress model (through the
config), resolves the model's names to the fullnames of their definitions once mypy has
loaded them, and hands each hooked call, attribute or class to the checks registered for
it. A check lives in `checks/twNNN.py`, registers itself from the model
(`register(plugin)`) and sees the plugin only as `api.Rules`.
"""

from __future__ import annotations

import functools
import os
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mypy.errorcodes import ErrorCode
from mypy.nodes import CallExpr, Context, Expression, MemberExpr, MypyFile, NameExpr, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AttributeContext,
    CheckerPluginInterface,
    ClassDefContext,
    FunctionContext,
    MethodContext,
    Plugin,
    ReportConfigContext,
    SemanticAnalyzerPluginInterface,
)
from mypy.types import Type

from toolwire.lint.mypy._codes import error_codes
from toolwire.lint.mypy._fingerprint import remember, remembered
from toolwire.lint.mypy._partial import PARTIAL_CALL, partial_call
from toolwire.lint.mypy._types import children, displayed, holds
from toolwire.lint.mypy.api import Call, CallCheck, ClassCheck, SinkCheck, ValueCheck

if TYPE_CHECKING:  # loaded with the first config: a warm cache never needs them
    from toolwire.lint.config import CallSink, Config
    from toolwire.lint.model import Index, ResultType
    from toolwire.lint.mypy._settings import Settings


_AnyCtx = FunctionContext | MethodContext
_C = TypeVar("_C", FunctionContext, MethodContext)
_Hook = Callable[[_AnyCtx], Type]
SINK_KINDS = ("wire", "egress", "state", "html")


class ToolwirePlugin(Plugin):
    """The rules of one `[tool.toolwire]` table: its hook tables, and what checks use.

    mypy talks to `FilePlugin`, which keeps one of these per config file and hands each
    hook to the one of the file being checked.
    """

    def __init__(self, options: Options, config: Config) -> None:
        from toolwire.lint.model import STRING_FORMS, index

        super().__init__(options)
        self.config = config
        self.index: Index = index(self.config.model)
        self._string_forms = STRING_FORMS
        self._codes: dict[str, ErrorCode] | None = None  # read from the catalog on first use
        self.result_name = self.config.result_classes[0].rpartition(".")[2]
        self._filtered = bool(config.per_file_ignores or (config.force_exclude and config.exclude))
        self._reported_crash = False
        # The result and artifact types by every name they have: configured, then the
        # definitions those resolve to once mypy has loaded them.
        self.types: dict[str, ResultType] = {
            n: t for t in self.config.result_types for n in t.names
        }
        self.results: set[str] = set(self.types)
        self.artifacts: set[str] = set(self.config.artifact_classes)
        self._unsafe: dict[str, frozenset[str]] = {}
        self._pending_classes: dict[str, str] = {
            **{name: "result" for name in self.types},
            **{name: "artifact" for name in self.config.artifact_classes},
        }
        self._pending_sinks: set[str] = set()
        self._pending_tails: frozenset[str] = frozenset()
        self._seen_modules = -1
        self._live_pending = True
        self._functions: dict[str, list[CallCheck]] = {}
        self._methods: dict[str, list[CallCheck]] = {}
        self._hooks: dict[str, _Hook] = {}
        self._sinks: dict[str, list[tuple[str, CallSink]]] = {}
        self._sink_checks: dict[str, list[SinkCheck]] = {kind: [] for kind in SINK_KINDS}
        self._sink_methods: frozenset[str] = frozenset()
        self._inherited: dict[str, _Hook | None] = {}
        self._dunders: dict[str, list[ValueCheck]] = {}
        self._attributes: dict[str, list[ValueCheck]] = {}
        self._class_checks: list[ClassCheck] = []
        self._result_classes: list[ClassCheck] = []  # run on subclasses of a result type
        self._on_result: list[Callable[[str], None]] = []  # told each constructed result type
        from toolwire.lint.mypy.checks import register_all

        register_all(self)
        self._build_sinks()
        for name, kind in list(self._pending_classes.items()):
            if kind == "result":
                self._add_result(name, self.types[name])
        self._changed()

    # -- what checks use ---------------------------------------------------------------

    def enabled(self, *codes: str) -> bool:
        return any(self.config.enabled(code) for code in codes)

    def on_function(self, fullname: str, check: CallCheck) -> None:
        self._functions.setdefault(fullname, []).append(check)

    def on_method(self, fullname: str, check: CallCheck) -> None:
        self._methods.setdefault(fullname, []).append(check)

    def on_sink(self, kind: str, check: SinkCheck) -> None:
        self._sink_checks[kind].append(check)

    def on_string_method(self, name: str, check: ValueCheck) -> None:
        """`x.__str__()` for any x: `check` gets the receiver's type."""
        self._dunders.setdefault(f".{name}", []).append(check)

    def on_attribute(self, fullname: str, check: ValueCheck) -> None:
        self._attributes.setdefault(fullname, []).append(check)

    def on_class(self, check: ClassCheck, *, result_subclasses_only: bool = False) -> None:
        (self._result_classes if result_subclasses_only else self._class_checks).append(check)

    def on_constructed_result(self, register: Callable[[str], None]) -> None:
        """`register(fullname)` for each result type built by factories, also resolved."""
        self._on_result.append(register)

    @property
    def codes(self) -> dict[str, ErrorCode]:
        """TW code -> mypy error code; read when there is something to report."""
        if self._codes is None:
            self._codes = error_codes()
        return self._codes

    def fail(self, api: Any, code: str, key: str, context: Context, **fields: str) -> None:
        from toolwire.lint.messages import message

        path = _path_of(api) if self._filtered else None
        if path and self.config.silenced(path, code):  # per-file-ignores, force-exclude
            return
        fields.setdefault("result", self.result_name)
        text = message(code, key, **fields)
        api.fail(f"{code} {text}", context, code=self.codes[code])

    def type_of(self, api: CheckerPluginInterface, expr: Expression) -> Type | None:
        lookup = getattr(api, "lookup_type_or_none", None)  # TypeChecker: no re-inference
        return lookup(expr) if lookup is not None else api.get_expression_type(expr)

    def unsafe(self, form: str | None) -> frozenset[str]:
        """The result types whose string form `form` shows more than the wire field."""
        if form is None or form not in self._string_forms:
            return frozenset(self.results)
        found = self._unsafe.get(form)
        if found is None:
            found = self._unsafe[form] = frozenset(
                name for name in self.results if form not in self.types[name].safe_strings
            )
        return found

    def holds_result(
        self, call: Call, expr: Expression, typ: Type, *, form: str | None = None
    ) -> bool:
        """`expr` (of type `typ`) is or holds a result whose `form` string is unsafe; with
        a form, a dataclass that writes its own `__str__` decides its string itself."""
        classes = self.unsafe(form)
        strings = form is not None
        if holds(typ, classes, string_forms=strings):
            return True
        return any(
            holds(self.type_of(call.api, item), classes, string_forms=strings)
            for item in displayed(expr)
            if item is not expr
        )

    def shown(self, typ: Type | None) -> str:
        """The name of the result type `typ` is or holds, for messages (`ToolMessage`);
        the first result class when it holds none itself (a value computed from one)."""
        for fullname, rtype in self.types.items():
            if holds(typ, (fullname,)):
                return rtype.name.rpartition(".")[2]
        return self.result_name

    def from_artifacts(self, call: Call, expr: Expression, typ: Type) -> bool:
        """An artifact, a run-only field of a result, or a value computed from one."""
        if holds(typ, self.artifacts):
            return True
        stack = [expr]
        while stack:
            node = stack.pop()
            if node is not expr and holds(self.type_of(call.api, node), self.artifacts):
                return True
            if isinstance(node, MemberExpr) and node.name in self.index.run_only:
                # a run-only field of the owner's own type: `item.output` of an Agents SDK
                # item is its wire field, though smolagents' ToolOutput keeps `output` run-only
                owner = self.type_of(call.api, node.expr)
                if any(
                    node.name in rtype.run_only and holds(owner, (name,))
                    for name, rtype in self.types.items()
                ):
                    return True
            if not _counts(node):  # `len(result.artifacts)` says nothing of their data
                stack.extend(children(node))
        return False

    def from_result(self, call: Call, expr: Expression) -> bool:
        """A value computed from a result or its wire field (`str(result)`,
        `"done: " + result.content`), not through another barrier (`result.is_error`)."""
        stack = [expr]
        index = self.index
        while stack:
            node = stack.pop()
            if isinstance(node, MemberExpr) and node.name in index.barriers:
                if node.name not in index.wire_fields:
                    continue
                if holds(self.type_of(call.api, node.expr), self.results):
                    return True
            if node is not expr and holds(self.type_of(call.api, node), self.results):
                return True
            stack.extend(children(node))
        return False

    def resolved(self, name: str) -> str | None:
        """The fullname of the definition `name` refers to, once mypy has loaded it."""
        if self._modules is None:
            return None
        symbol = self.lookup_fully_qualified(name)
        node = symbol.node if symbol is not None else None
        return node.fullname if node is not None and node.fullname else None

    # -- tables --------------------------------------------------------------------------

    def _build_sinks(self) -> None:
        config = self.config
        kinds = (
            ("wire", config.wire_sinks),
            ("egress", config.egress_sinks),
            ("state", config.state_sinks),
            ("html", config.html_sinks),
        )
        for kind, sinks in kinds:
            if self._sink_checks[kind]:
                for sink in sinks:
                    for target in sink.targets:
                        self._sinks.setdefault(target, []).append((kind, sink))
        for target in self._sinks:
            self._add_sink(target)
        self._pending_sinks = set(self._sinks)
        self._sink_methods = frozenset(t.rpartition(".")[2] for t in self._sinks)

    def _add_sink(self, fullname: str) -> None:
        check = self._sink_check(fullname)
        self.on_function(fullname, check)
        self.on_method(fullname, check)

    def _add_result(self, fullname: str, rtype: ResultType) -> None:
        self.types[fullname] = rtype
        self.results.add(fullname)
        self._unsafe.clear()
        if rtype.factories:
            for register in self._on_result:
                register(fullname)

    def _live(self) -> bool:
        """Is a configured name unresolved while its package is in the build?

        Rechecked only when mypy's module table grows, so a program that never imports
        the result class pays one `len()` per hook.
        """
        modules = self._modules
        if modules is None:
            return False
        if len(modules) != self._seen_modules:
            self._seen_modules = len(modules)
            pending = (*self._pending_classes, *self._pending_sinks)
            self._live_pending = any(name.partition(".")[0] in modules for name in pending)
        return self._live_pending

    def _resolve(self) -> None:
        """Map the configured classes to the fullnames of their definitions (re-exports)."""
        if not self._pending_classes or not self._live():
            return
        for name, kind in list(self._pending_classes.items()):
            fullname = self.resolved(name)
            if fullname is None:
                continue  # not analysed (yet), or not in this program: try again later
            del self._pending_classes[name]
            if kind == "result":
                if fullname not in self.results:
                    self._add_result(fullname, self.types[name])
            else:
                self.artifacts.add(fullname)
        self._changed()

    def _resolve_sinks(self) -> None:
        """Map the configured sinks to their definitions: only on a miss worth it."""
        for name in list(self._pending_sinks):
            fullname = self.resolved(name)
            if fullname is None:
                continue
            self._pending_sinks.discard(name)
            if fullname != name:
                known = self._sinks.setdefault(fullname, [])
                known.extend(s for s in self._sinks.get(name, []) if s not in known)
                if fullname not in self._functions:
                    self._add_sink(fullname)
        self._changed()

    def _changed(self) -> None:
        self._seen_modules = -1
        self._pending_tails = frozenset(
            n.rpartition(".")[2] for n in (*self._pending_classes, *self._pending_sinks)
        )

    def _lookup(self, table: dict[str, list[CallCheck]], fullname: str) -> _Hook | None:
        checks = table.get(fullname)
        if checks is None and self._pending_tails and self._live():
            # A re-exported definition keeps its name: only such a miss is worth resolving.
            head, _, tail = fullname.rpartition(".")
            if tail in self._pending_tails or head.rpartition(".")[2] in self._pending_tails:
                self._resolve()
                self._resolve_sinks()
                checks = table.get(fullname)
        if checks is None:
            return None
        key = f"{id(table)}:{fullname}"
        hook = self._hooks.get(key)
        if hook is None:
            hook = self._hooks[key] = self._call_hook(checks)
        return hook

    # -- mypy's hooks ----------------------------------------------------------------------

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._lookup(self._functions, fullname)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname == PARTIAL_CALL:
            return functools.partial(
                partial_call,
                function_hook=self.get_function_hook,
                method_hook=self.get_method_hook,
            )
        hook = self._lookup(self._methods, fullname)
        if hook is None and self._dunders:
            dot = fullname.rfind(".")
            checks = self._dunders.get(fullname[dot:]) if dot >= 0 else None
            if checks is not None:
                return self._value_hook(checks)
        if hook is None and fullname.rpartition(".")[2] in self._sink_methods:
            return self._inherited_sink(fullname)
        return hook

    def _inherited_sink(self, fullname: str) -> _Hook | None:
        """A sink method called on a subclass (inherited or overridden), on the class or an
        instance: mypy names the method by the receiver's class, so look up its MRO."""
        if fullname in self._inherited:
            return self._inherited[fullname]
        owner, _, method = fullname.rpartition(".")
        if self._modules is None:
            return None
        symbol = self.lookup_fully_qualified(owner)
        info = symbol.node if symbol is not None else None
        if not isinstance(info, TypeInfo):
            return None  # not analysed yet: ask again next time
        hook = None
        for base in info.mro[1:]:
            hook = self._lookup(self._methods, f"{base.fullname}.{method}")
            if hook is not None:
                break
        self._inherited[fullname] = hook
        return hook

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        checks = self._attributes.get(fullname)
        return self._attribute_hook(checks) if checks else None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        checks = list(self._class_checks)
        if self._result_classes and (
            fullname in self.results
            or (self._pending_classes and fullname.rpartition(".")[2] in self._pending_tails)
        ):
            checks = [*self._result_classes, *checks]
        return self._class_hook(checks) if checks else None

    # -- guarded adapters ------------------------------------------------------------------

    def _guarded(
        self,
        api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
        context: Context,
        run: Callable[[], None],
    ) -> None:
        """Runs `run`; a crash is reported once at `context`, never raised into mypy.

        Nothing runs in a module whose errors mypy drops (an installed package, a module
        reached with follow_imports=silent, ignore_errors): a finding there is never shown.
        """
        if _silenced(api):
            return
        try:
            self._resolve()
            run()
        except Exception as exc:
            self._crashed(api, context, exc)

    def _call_hook(self, checks: list[CallCheck]) -> _Hook:
        def hook(ctx: _AnyCtx) -> Type:
            def run() -> None:
                call = Call(
                    ctx.args,
                    ctx.arg_types,
                    ctx.arg_kinds,
                    ctx.callee_arg_names,
                    ctx.context,
                    ctx.api,
                )
                for check in checks:
                    check(call)

            self._guarded(ctx.api, ctx.context, run)
            return ctx.default_return_type

        return hook

    def _value_hook(self, checks: list[ValueCheck]) -> Callable[[MethodContext], Type]:
        def hook(ctx: MethodContext) -> Type:
            self._guarded(
                ctx.api, ctx.context, lambda: _each(checks, ctx.api, ctx.context, ctx.type)
            )
            return ctx.default_return_type

        return hook

    def _attribute_hook(self, checks: list[ValueCheck]) -> Callable[[AttributeContext], Type]:
        def hook(ctx: AttributeContext) -> Type:
            self._guarded(
                ctx.api, ctx.context, lambda: _each(checks, ctx.api, ctx.context, ctx.type)
            )
            return ctx.default_attr_type

        return hook

    def _class_hook(self, checks: list[ClassCheck]) -> Callable[[ClassDefContext], None]:
        def hook(ctx: ClassDefContext) -> None:
            def run() -> None:
                for check in checks:
                    check(ctx)

            self._guarded(ctx.api, ctx.cls, run)

        return hook

    def _sink_check(self, target: str) -> CallCheck:
        def check(call: Call) -> None:
            for kind, sink in self._sinks.get(target, ()):
                if sink.any_argument:
                    formals: list[int] | None = None
                else:
                    names = call.callee_arg_names
                    if sink.name is not None and sink.name in names:
                        formals = [names.index(sink.name)]
                    elif sink.index is not None:
                        formals = [sink.index]
                    else:
                        continue
                for expr, typ, arg_kind in call.actuals(formals):
                    for sink_check in self._sink_checks[kind]:
                        sink_check(call, sink.label, expr, typ, arg_kind)

        return check

    def _crashed(
        self,
        api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
        context: Context,
        exc: Exception,
    ) -> None:
        # One note per run: a plugin bug must never stop or flood the user's mypy.
        if self._reported_crash:
            return
        self._reported_crash = True
        text = f"toolwire: internal error in plugin: {type(exc).__name__}: {exc}"
        if isinstance(api, CheckerPluginInterface):
            api.msg.note(text, context)
        elif hasattr(api, "note"):  # the semantic analyzer
            api.note(text, context)
        else:
            api.fail(text, context)


def _counts(node: Expression) -> bool:
    callee = node.callee if isinstance(node, CallExpr) else None
    return isinstance(callee, NameExpr) and callee.fullname == "builtins.len"


def _each(
    checks: list[ValueCheck], api: CheckerPluginInterface, context: Context, typ: Type | None
) -> None:
    for check in checks:
        check(api, context, typ)


def _silenced(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> bool:
    """mypy's own test for "errors in the current module are not reported" (the checker
    keeps it as `can_skip_diagnostics`): per-module ignore_errors, or the file is in
    `Errors.ignored_files`, where mypy puts silenced imports and installed packages."""
    if api.options.ignore_errors:
        return True
    if isinstance(api, CheckerPluginInterface):
        path = api.path
    else:
        module = api.modules.get(api.cur_mod_id)
        if module is None:
            return False
        path = module.path
    return path in api.msg.errors.ignored_files


# -- the plugin mypy talks to ---------------------------------------------------------------

_OUTSIDE = "toolwire: no table (typeshed or an installed package)"
_LIVE: weakref.WeakSet[FilePlugin] = weakref.WeakSet()


class FilePlugin(Plugin):
    """Each checked file under its own table, as in `toolwire check` and flake8: the
    nearest `[tool.toolwire]` above the file (or `x_toolwire_config` for every file).

    One `ToolwirePlugin` per config file, built when a file under it is parsed
    (`get_additional_deps`, before any hook). With one config file in the build its hooks
    are returned as they are; with more, a hook looks up the table of the file it runs in.
    Typeshed and installed packages (whose errors mypy never shows) load no table.
    """

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        # A warm cache asks only for each module's fingerprint: an earlier run's, while
        # its inputs hold; a config is read when a module needs one it does not know.
        known = remembered(options)
        self._fingerprints: dict[str, str] = dict(known[0]) if known else {}
        self._deps: set[str] = set(known[1]) if known else set()
        self._fixed: Path | None = None
        self._fixed_read = False
        self._dirs: dict[str, Path | None] = {}  # directory -> its config file
        self._settings: dict[Path | None, Settings] = {}
        self._rules: dict[Path | None, ToolwirePlugin] = {}
        self._stamps: dict[Path, tuple[int, int, int] | None] = {}
        self._checked: dict[Path | None, None] = {}  # config files of checkable files
        self._active: list[ToolwirePlugin] | None = None
        self._outside_roots: tuple[str, ...] | None = None
        _LIVE.add(self)

    # -- config files ------------------------------------------------------------------

    def _fixed_source(self) -> Path | None:
        if not self._fixed_read:
            from toolwire.lint.mypy._settings import explicit_config

            self._fixed = explicit_config(self.options.config_file)
            self._fixed_read = True
        return self._fixed

    def _source_for(self, path: str, *, fresh: bool = False) -> Path | None:
        """The config file of `path`, looked up once per directory (`fresh`: again)."""
        fixed = self._fixed_source()
        if fixed is not None:
            return fixed
        directory = os.path.dirname(os.path.abspath(path))
        if fresh or directory not in self._dirs:
            from toolwire.lint._discovery import find_config

            self._dirs[directory] = find_config(Path(directory))
        return self._dirs[directory]

    def _outside(self, path: str) -> bool:
        """typeshed, or an installed package (site-packages): mypy reports nothing there
        (`is_silent_import_module`). Not the rest of the Python's search path: an
        editable install (a `.pth` entry) is a project of its own, with its own table."""
        if self._outside_roots is None:
            import mypy
            from mypy.modulefinder import get_search_dirs

            roots: list[str] = []
            if not self.options.no_silence_site_packages:
                roots += get_search_dirs(self.options.python_executable)[1]
                roots.append(
                    self.options.custom_typeshed_dir
                    or os.path.join(os.path.dirname(mypy.__file__), "typeshed")
                )
            self._outside_roots = tuple(
                os.path.join(os.path.normpath(os.path.abspath(r)), "") for r in roots
            )
        full = os.path.normpath(os.path.abspath(path))
        return full.startswith(self._outside_roots)

    def _load(self, source: Path | None) -> Settings:
        settings = self._settings.get(source)
        if settings is None:
            from toolwire.lint._discovery import stamp
            from toolwire.lint.mypy._settings import load_settings
            from toolwire.lint.signatures import sources_read

            if source is not None:
                self._stamps[source] = stamp(source)
            settings = self._settings[source] = load_settings(source)
            key = _key(source)
            if self._fingerprints.get(key) != settings.fingerprint:
                # A cold start, or an input the digest does not cover changed (a sink's
                # module now found earlier on sys.path): report what the config says now.
                self._fingerprints[key] = settings.fingerprint
                if settings.problem is None:
                    self._deps.update(str(p) for p in sources_read())
                    self._deps.update(str(p) for p in self._stamps)
                    remember(self.options, self._fingerprints, self._deps)
        return settings

    def _rules_for(self, source: Path | None) -> ToolwirePlugin:
        rules = self._rules.get(source)
        if rules is None:
            rules = self._rules[source] = ToolwirePlugin(self.options, self._load(source).config)
            if self._modules is not None:
                rules.set_modules(self._modules)
        return rules

    def _forget(self, source: Path) -> None:
        """`source` changed under a long-lived process (dmypy): read it again when asked."""
        self._settings.pop(source, None)
        self._rules.pop(source, None)
        self._stamps.pop(source, None)
        self._fingerprints.pop(_key(source), None)
        self._active = None

    def stale(self) -> bool:
        """Has a config file this plugin uses changed, or does a directory now find
        another one? (dmypy keeps the plugin across runs.)"""
        from toolwire.lint._discovery import find_config, stamp

        if any(stamp(source) != old for source, old in self._stamps.items()):
            return True
        if self._fixed is not None:
            return False
        return any(find_config(Path(d)) != source for d, source in self._dirs.items())

    def _rules_list(self) -> list[ToolwirePlugin]:
        if self._active is None:
            if not self._checked:  # a hook before any file was parsed: the working directory
                self._checked[self._source_for(os.path.join(os.getcwd(), "-"))] = None
            self._active = [self._rules_for(source) for source in self._checked]
        return self._active

    def _rules_at(
        self, api: CheckerPluginInterface | SemanticAnalyzerPluginInterface
    ) -> ToolwirePlugin | None:
        """The rules of the file being checked; None where mypy shows no error."""
        if _silenced(api):
            return None
        path = _path_of(api)
        if path is None:
            return None
        source = self._source_for(path)
        if source not in self._checked:  # not seen before its hooks: in the union from now on
            self._checked[source] = None
            self._active = None
        return self._rules_for(source)

    # -- mypy's hooks ------------------------------------------------------------------

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        for rules in self._rules.values():
            rules.set_modules(modules)

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Called for each file mypy parses, before its hooks: load the file's table (a
        bad one stops mypy here) and notice a changed one (dmypy)."""
        path = file.path
        if not path or self._outside(path):
            return []
        source = self._source_for(path, fresh=True)
        if source is not None and source in self._stamps:
            from toolwire.lint._discovery import stamp

            if stamp(source) != self._stamps[source]:
                self._forget(source)
        if source not in self._checked or source not in self._rules:
            self._checked[source] = None
            self._active = None
            self._rules_for(source)
        return []

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        if not ctx.path or self._outside(ctx.path):
            return _OUTSIDE
        source = self._source_for(ctx.path)
        if source not in self._checked:
            # A module read from the cache may still be checked again (a dependency
            # changed) without being parsed first: its table belongs to the hooks too.
            self._checked[source] = None
            self._active = None
        known = self._fingerprints.get(_key(source))
        return known if known is not None else self._load(source).fingerprint

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._call_dispatch(lambda r: r.get_function_hook(fullname))

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._call_dispatch(lambda r: r.get_method_hook(fullname))

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        rules = self._rules_list()
        if len(rules) == 1:
            return rules[0].get_attribute_hook(fullname)
        if all(r.get_attribute_hook(fullname) is None for r in rules):
            return None

        def hook(ctx: AttributeContext) -> Type:
            mine = self._rules_at(ctx.api)
            found = mine.get_attribute_hook(fullname) if mine is not None else None
            return found(ctx) if found is not None else ctx.default_attr_type

        return hook

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        rules = self._rules_list()
        if len(rules) == 1:
            return rules[0].get_base_class_hook(fullname)
        if all(r.get_base_class_hook(fullname) is None for r in rules):
            return None

        def hook(ctx: ClassDefContext) -> None:
            mine = self._rules_at(ctx.api)
            found = mine.get_base_class_hook(fullname) if mine is not None else None
            if found is not None:
                found(ctx)

        return hook

    def _call_dispatch(
        self, pick: Callable[[ToolwirePlugin], Callable[[_C], Type] | None]
    ) -> Callable[[_C], Type] | None:
        rules = self._rules_list()
        if len(rules) == 1:
            return pick(rules[0])
        if all(pick(r) is None for r in rules):
            return None

        def hook(ctx: _C) -> Type:
            mine = self._rules_at(ctx.api)
            found = pick(mine) if mine is not None else None
            return found(ctx) if found is not None else ctx.default_return_type

        return hook


def _key(source: Path | None) -> str:
    return "" if source is None else str(source)


def _path_of(api: CheckerPluginInterface | SemanticAnalyzerPluginInterface) -> str | None:
    if isinstance(api, CheckerPluginInterface):
        return api.path
    module = api.modules.get(api.cur_mod_id)
    return module.path if module is not None else None


def stale_version() -> str:
    """The plugin's `__version__` for mypy's plugin snapshot: the toolwire version, and a
    mark while a live plugin's table changed. dmypy compares the snapshot on `dmypy run`
    and restarts on a difference, so a changed table rechecks every module there."""
    from toolwire import __version__

    if any(plugin.stale() for plugin in list(_LIVE)):
        return f"{__version__}+changed-config"
    return __version__
