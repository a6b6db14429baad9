"""The plugin class: a table from mypy fullnames to checks, built once from the config."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from mypy.checker import TypeChecker
from mypy.errorcodes import ErrorCode
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    AssignmentExpr,
    AwaitExpr,
    CallExpr,
    CastExpr,
    ComparisonExpr,
    ConditionalExpr,
    Context,
    Decorator,
    DictExpr,
    DictionaryComprehension,
    Expression,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    TupleExpr,
    TypeAlias,
    TypeInfo,
    UnaryExpr,
)
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
from mypy.semanal import SemanticAnalyzer
from mypy.types import CallableType, Instance, Type, UnboundType, get_proper_type

from toolwire.config import CallSink, Config
from toolwire.mypy._settings import Settings, error_codes, load_settings
from toolwire.mypy._types import (
    displayed,
    holds,
    is_class,
    is_exactly,
    unwrap_coroutine,
)

_STRINGIFIERS: Final = {
    "builtins.str": "str",
    "builtins.repr": "repr",
    "builtins.ascii": "ascii",
    "builtins.format": "format",
}
_SERIALISERS: Final = {
    "json.dumps": "json.dumps",
    "json.dump": "json.dump",
    "pickle.dumps": "pickle.dumps",
    "pickle.dump": "pickle.dump",
    "_pickle.dumps": "pickle.dumps",
    "_pickle.dump": "pickle.dump",
    "dataclasses.asdict": "dataclasses.asdict",
    "dataclasses.astuple": "dataclasses.astuple",
    "builtins.vars": "vars",
}
_LOG_LEVELS: Final = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log")
_PRINTERS: Final = {
    "builtins.print": "print",
    **{f"logging.{level}": f"logging.{level}" for level in _LOG_LEVELS},
}
_LOGGER_METHODS: Final = {
    f"logging.{cls}.{level}": f"{cls}.{level}"
    for cls in ("Logger", "LoggerAdapter")
    for level in (*_LOG_LEVELS, "fatal")
}
_FORMATTERS: Final = {
    "builtins.str.format": "f-string or str.format",
    "builtins.str.format_map": "str.format_map",
    "builtins.str.__mod__": "%",
    "builtins.str.__add__": "+",
    "builtins.str.join": "str.join",
}
_STRING_DUNDERS: Final = (".__str__", ".__repr__", ".__format__")


@dataclass(frozen=True, slots=True)
class _Call:
    """What FunctionContext and MethodContext share."""

    args: list[list[Expression]]
    arg_types: list[list[Type]]
    arg_kinds: list[list[ArgKind]]
    callee_arg_names: list[str | None]
    context: Context
    api: CheckerPluginInterface

    def actuals(
        self, formals: Iterable[int] | None = None
    ) -> Iterable[tuple[Expression, Type, ArgKind]]:
        indices = range(len(self.args)) if formals is None else formals
        for i in indices:
            if 0 <= i < len(self.args):
                yield from zip(self.args[i], self.arg_types[i], self.arg_kinds[i], strict=False)


_Check = Callable[[_Call], None]
_AnyCtx = FunctionContext | MethodContext
_Hook = Callable[[_AnyCtx], Type]


class ToolwirePlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.settings: Settings = load_settings(options.config_file)
        self.config: Config = self.settings.config
        self.codes: dict[str, ErrorCode] = error_codes()
        self._reported_crash = False
        # Configured names, then the definitions they resolve to once mypy has loaded them.
        self.results: set[str] = set(self.config.result_classes)
        self.artifacts: set[str] = set(self.config.artifact_classes)
        self._pending_classes: dict[str, str] = {
            **{name: "result" for name in self.config.result_classes},
            **{name: "artifact" for name in self.config.artifact_classes},
        }
        self._pending_sinks: set[str] = set()
        self._pending_tails: frozenset[str] = frozenset()
        self._seen_modules = -1
        self._live_pending = True
        self._result_name = self.config.result_classes[0].rpartition(".")[2]
        self._functions: dict[str, _Hook] = {}
        self._methods: dict[str, _Hook] = {}
        self._sinks: dict[str, list[tuple[str, CallSink]]] = {}
        self._sink_methods: frozenset[str] = frozenset()
        self._inherited: dict[str, _Hook | None] = {}
        self._result_bases: set[str] = set()
        self._tw101 = bool(self.config.tool_methods) and self._enabled("TW101")
        self._dunders: dict[str, Callable[[MethodContext], Type]] = (
            {f".{name}": self._dunder_hook(name) for name in ("__str__", "__repr__", "__format__")}
            if self._enabled("TW201")
            else {}
        )
        self._dict_hook = self._dict_attribute if self._enabled("TW203") else None
        self._build_tables()

    # -- tables --------------------------------------------------------------------------

    def _enabled(self, *codes: str) -> bool:
        return any(self.config.enabled(code) for code in codes)

    def _build_tables(self) -> None:
        checks: list[tuple[dict[str, _Hook], dict[str, str], str, bool]] = [
            (self._functions, _STRINGIFIERS, "TW201", False),
            (self._functions, _SERIALISERS, "TW203", True),
            (self._functions, _PRINTERS, "TW204", False),
            (self._methods, _LOGGER_METHODS, "TW204", False),
            (self._methods, _FORMATTERS, "TW202", False),
        ]
        for table, names, code, first_only in checks:
            if self._enabled(code):
                for name, label in names.items():
                    table[name] = self._call_hook(self._stringify(code, label, first_only))
        kinds = (
            ("wire", self.config.wire_sinks, ("TW301", "TW302")),
            ("state", self.config.state_sinks, ("TW401",)),
            ("html", self.config.html_sinks, ("TW402",)),
        )
        for kind, sinks, codes in kinds:
            if self._enabled(*codes):
                for sink in sinks:
                    self._sinks.setdefault(sink.target, []).append((kind, sink))
        for target in self._sinks:
            self._add_sink(target)
        self._pending_sinks = set(self._sinks)
        self._sink_methods = frozenset(t.rpartition(".")[2] for t in self._sinks)
        for result in self.config.result_classes:
            self._add_result(result)
        self._changed()

    def _add_sink(self, fullname: str) -> None:
        hook = self._call_hook(self._sink_check(fullname))
        self._functions[fullname] = hook
        self._methods[fullname] = hook

    def _add_result(self, fullname: str) -> None:
        self.results.add(fullname)
        self._result_bases.add(fullname)
        if self._enabled("TW102"):
            self._functions[fullname] = self._call_hook(self._construct)
        if self._enabled("TW103"):
            self._methods[f"{fullname}.error"] = self._call_hook(self._error_with_artifacts)

    def _definition(self, name: str) -> str | None:
        if self._modules is None:
            return None
        symbol = self.lookup_fully_qualified(name)
        node = symbol.node if symbol is not None else None
        return node.fullname if node is not None and node.fullname else None

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
            fullname = self._definition(name)
            if fullname is None:
                continue  # not analysed (yet), or not in this program: try again later
            del self._pending_classes[name]
            if kind == "result":
                self._add_result(fullname)
            else:
                self.artifacts.add(fullname)
        self._changed()

    def _resolve_sinks(self) -> None:
        for name in list(self._pending_sinks):
            fullname = self._definition(name)
            if fullname is None:
                continue
            self._pending_sinks.discard(name)
            if fullname != name:
                self._sinks.setdefault(fullname, []).extend(self._sinks.get(name, []))
                self._add_sink(fullname)
        self._changed()

    def _changed(self) -> None:
        self._seen_modules = -1
        self._pending_tails = frozenset(
            n.rpartition(".")[2] for n in (*self._pending_classes, *self._pending_sinks)
        )

    def _lookup(self, table: dict[str, _Hook], fullname: str) -> _Hook | None:
        hook = table.get(fullname)
        if hook is None and self._pending_tails and self._live():
            # A re-exported definition keeps its name: only such a miss is worth resolving.
            head, _, tail = fullname.rpartition(".")
            if tail in self._pending_tails or head.rpartition(".")[2] in self._pending_tails:
                self._resolve()
                self._resolve_sinks()
                hook = table.get(fullname)
        return hook

    # -- mypy's hooks ----------------------------------------------------------------------

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        return self.settings.fingerprint

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._lookup(self._functions, fullname)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        hook = self._lookup(self._methods, fullname)
        if hook is None and fullname.endswith(_STRING_DUNDERS):
            return self._dunders.get(fullname[fullname.rindex(".") :])
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
        return self._dict_hook if fullname == "builtins.object.__dict__" else None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        if fullname in self._result_bases or (
            self._pending_classes and fullname.rpartition(".")[2] in self._pending_tails
        ):
            return self._subclass_hook
        return self._tool_class_hook if self._tw101 else None

    # -- guarded adapters ------------------------------------------------------------------

    def _call_hook(self, check: _Check) -> _Hook:
        def hook(ctx: _AnyCtx) -> Type:
            try:
                self._resolve()
                check(
                    _Call(
                        ctx.args,
                        ctx.arg_types,
                        ctx.arg_kinds,
                        ctx.callee_arg_names,
                        ctx.context,
                        ctx.api,
                    )
                )
            except Exception as exc:
                self._crashed(ctx.api, ctx.context, exc)
            return ctx.default_return_type

        return hook

    def _dunder_hook(self, method: str) -> Callable[[MethodContext], Type]:
        def hook(ctx: MethodContext) -> Type:
            try:
                self._resolve()
                if holds(ctx.type, self.results, string_forms=True):
                    self._fail(
                        ctx.api,
                        "TW201",
                        f"{method}() of a {self._result_name}: use result.content",
                        ctx.context,
                    )
            except Exception as exc:
                self._crashed(ctx.api, ctx.context, exc)
            return ctx.default_return_type

        return hook

    def _dict_attribute(self, ctx: AttributeContext) -> Type:
        try:
            self._resolve()
            if holds(ctx.type, self.results):
                self._fail(
                    ctx.api,
                    "TW203",
                    f"__dict__ of a whole {self._result_name}: "
                    "read result.content or result.audit_record()",
                    ctx.context,
                )
        except Exception as exc:
            self._crashed(ctx.api, ctx.context, exc)
        return ctx.default_attr_type

    def _subclass_hook(self, ctx: ClassDefContext) -> None:
        try:
            self._resolve()
            info = ctx.cls.info
            if self._enabled("TW105") and any(
                base.type.fullname in self.results for base in info.bases
            ):
                ctx.api.fail(
                    f"TW105 subclass of {self._result_name}: the result class is final and "
                    "has no string form; wrap it instead",
                    ctx.cls,
                    code=self.codes["TW105"],
                )
            if self._tw101:
                self._check_tool_class(ctx)
        except Exception as exc:
            self._crashed(ctx.api, ctx.cls, exc)

    def _tool_class_hook(self, ctx: ClassDefContext) -> None:
        try:
            self._check_tool_class(ctx)
        except Exception as exc:
            self._crashed(ctx.api, ctx.cls, exc)

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
        message = f"toolwire: internal error in plugin: {type(exc).__name__}: {exc}"
        if isinstance(api, CheckerPluginInterface):
            api.msg.note(message, context)
        elif isinstance(api, SemanticAnalyzer):
            api.note(message, context)
        else:
            api.fail(message, context)

    def _fail(
        self,
        api: CheckerPluginInterface | SemanticAnalyzerPluginInterface,
        code: str,
        message: str,
        context: Context,
    ) -> None:
        api.fail(f"{code} {message}", context, code=self.codes[code])

    # -- checks ----------------------------------------------------------------------------

    def _type_of(self, api: CheckerPluginInterface, expr: Expression) -> Type | None:
        if isinstance(api, TypeChecker):
            return api.lookup_type_or_none(expr)
        return api.get_expression_type(expr)

    def _holds_result(self, call: _Call, expr: Expression, typ: Type, *, strings: bool) -> bool:
        if holds(typ, self.results, string_forms=strings):
            return True
        return any(
            holds(self._type_of(call.api, item), self.results, string_forms=strings)
            for item in displayed(expr)
            if item is not expr
        )

    def _stringify(self, code: str, label: str, first_only: bool) -> _Check:
        strings = code != "TW203"
        what = {
            "TW201": f"{label}() of a {self._result_name}: use result.content",
            "TW202": f"a {self._result_name} formatted into a string ({label}): "
            "interpolate result.content",
            "TW203": f"a whole {self._result_name} serialised by {label}(): serialise "
            "result.to_flowdrop() or result.audit_record()",
            "TW204": f"a {self._result_name} passed to {label}(): log result.content",
        }[code]

        def check(call: _Call) -> None:
            for expr, typ, _ in call.actuals([0] if first_only else None):
                if self._holds_result(call, expr, typ, strings=strings):
                    self._fail(call.api, code, what, expr)
                    return

        return check

    def _construct(self, call: _Call) -> None:
        name = self._result_name
        self._fail(
            call.api,
            "TW102",
            f"{name}(...) called directly: use {name}.text() or {name}.error()",
            call.context,
        )

    def _error_with_artifacts(self, call: _Call) -> None:
        node = call.context
        if not isinstance(node, CallExpr):
            return
        extra = len(node.args) > 1 or any(kind == ARG_STAR2 for kind in node.arg_kinds)
        if extra:
            self._fail(
                call.api,
                "TW103",
                f"{self._result_name}.error() given artifacts: a failed result carries none",
                node,
            )

    def _sink_check(self, target: str) -> _Check:
        def check(call: _Call) -> None:
            for kind, sink in self._sinks.get(target, ()):
                label = sink.target
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
                    if kind == "wire":
                        self._wire(call, label, expr, typ, arg_kind)
                    elif kind == "state":
                        self._state(call, label, expr, typ)
                    else:
                        self._html(call, label, expr, typ)

        return check

    def _derived_from_artifacts(self, call: _Call, expr: Expression, typ: Type) -> bool:
        if holds(typ, self.artifacts):
            return True
        stack = [expr]
        while stack:
            node = stack.pop()
            if node is not expr and holds(self._type_of(call.api, node), self.artifacts):
                return True
            if isinstance(node, MemberExpr) and node.name == "artifacts":
                if holds(self._type_of(call.api, node.expr), self.results):
                    return True
            stack.extend(_children(node))
        return False

    def _wire(self, call: _Call, sink: str, expr: Expression, typ: Type, kind: ArgKind) -> None:
        if self._holds_result(call, expr, typ, strings=False):
            if self._enabled("TW301"):
                self._fail(
                    call.api,
                    "TW301",
                    f"wire sink {sink} receives a whole {self._result_name}: pass result.content",
                    expr,
                )
            return
        if self._derived_from_artifacts(call, expr, typ):
            if self._enabled("TW302"):
                self._fail(
                    call.api,
                    "TW302",
                    f"an artifact reaches wire sink {sink}: artifacts are run-only",
                    expr,
                )
            return
        if kind in (ARG_STAR, ARG_STAR2) or isinstance(expr, NameExpr):
            return  # the syntax layer follows names; mypy's types say nothing about them
        if isinstance(expr, MemberExpr) and expr.name == "content":
            if is_exactly(self._type_of(call.api, expr.expr), self.results):
                return
        if self._enabled("TW301"):
            self._fail(
                call.api,
                "TW301",
                f"wire sink {sink} receives something other than <{self._result_name}>.content",
                expr,
            )

    def _state(self, call: _Call, sink: str, expr: Expression, typ: Type) -> None:
        if self._holds_result(call, expr, typ, strings=False) or self._derived_from_artifacts(
            call, expr, typ
        ):
            self._fail(
                call.api,
                "TW401",
                f"a {self._result_name} or its artifacts reach state sink {sink}: "
                "persist result.content (and is_error)",
                expr,
            )

    def _html(self, call: _Call, sink: str, expr: Expression, typ: Type) -> None:
        if self._derived_from_artifacts(call, expr, typ):
            self._fail(
                call.api,
                "TW402",
                f"an artifact payload is marked as safe HTML by {sink}: render it as text",
                expr,
            )

    def _check_tool_class(self, ctx: ClassDefContext) -> None:
        info = ctx.cls.info
        for method in self.config.tool_methods:
            symbol = info.names.get(method)
            if symbol is None:
                continue
            self._resolve()
            if self.config.tool_bases:
                bases = {self._definition(n) or n for n in self.config.tool_bases}
                if not is_class(info, bases | set(self.config.tool_bases)):
                    return
            func = _func(symbol.node)
            if func is None:
                continue
            # Signatures in the module being analysed are not analysed yet when class
            # hooks run: resolve the annotation's name the way mypy will.
            returned = _class_named(ctx, _ret(func))
            if returned is None or returned.fullname != "builtins.str":
                continue
            base = _overridden(info, method)
            if base is None:
                continue
            base_info, base_func = base
            promised = _class_named(ctx, _ret(base_func))
            if promised is not None and is_class(promised, self.results):
                ctx.api.fail(
                    f"TW101 {info.name}.{method} returns str but overrides "
                    f"{base_info.fullname}.{method}, which returns {self._result_name}: "
                    "not migrated yet (run `toolwire migrate`)",
                    func,
                    code=self.codes["TW101"],
                )


def _class_named(ctx: ClassDefContext, typ: Type | None) -> TypeInfo | None:
    """The class a return annotation names, analysed or not; `async` unwrapped."""
    proper = unwrap_coroutine(typ)
    if isinstance(proper, Instance):
        return proper.type
    if isinstance(proper, UnboundType):
        symbol = ctx.api.lookup_qualified(proper.name, ctx.cls, suppress_errors=True)
        node = symbol.node if symbol is not None else None
        if isinstance(node, TypeAlias):
            target = get_proper_type(node.target)
            return target.type if isinstance(target, Instance) else None
        return node if isinstance(node, TypeInfo) else None
    return None


def _func(node: object) -> FuncDef | None:
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


def _ret(func: FuncDef) -> Type | None:
    return func.type.ret_type if isinstance(func.type, CallableType) else None


def _overridden(info: TypeInfo, method: str) -> tuple[TypeInfo, FuncDef] | None:
    for base in info.mro[1:]:
        symbol = base.names.get(method)
        if symbol is not None:
            func = _func(symbol.node)
            return (base, func) if func is not None else None
    return None


def _children(node: Expression) -> list[Expression]:
    """Sub-expressions worth looking into for an artifact read (not lambda bodies)."""
    if isinstance(node, CallExpr):
        return [node.callee, *node.args]
    if isinstance(node, MemberExpr | StarExpr | UnaryExpr | AwaitExpr | CastExpr):
        return [node.expr]
    if isinstance(node, IndexExpr):
        return [node.base, node.index]
    if isinstance(node, OpExpr):
        return [node.left, node.right]
    if isinstance(node, ComparisonExpr):
        return list(node.operands)
    if isinstance(node, ListExpr | TupleExpr | SetExpr):
        return list(node.items)
    if isinstance(node, DictExpr):
        return [e for pair in node.items for e in pair if e is not None]
    if isinstance(node, ListComprehension | SetComprehension):
        node = node.generator
    if isinstance(node, GeneratorExpr | DictionaryComprehension):
        heads = [node.left_expr] if isinstance(node, GeneratorExpr) else [node.key, node.value]
        conds = [c for group in node.condlists for c in group]
        return [*heads, *node.sequences, *conds]
    if isinstance(node, ConditionalExpr):
        return [node.cond, node.if_expr, node.else_expr]
    if isinstance(node, AssignmentExpr):
        return [node.value]
    if isinstance(node, SliceExpr):
        return [e for e in (node.begin_index, node.end_index, node.stride) if e is not None]
    return []
