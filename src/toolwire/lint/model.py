"""The egress model: what is a result, a stringifier, a logger, a sink ..., as data.

The core (`toolwire/lint/model.toml`) is always loaded; each selected preset
(`toolwire/lint/presets/<name>.toml`) adds to its sections. Both the syntax layer and the mypy
plugin read the one `Model` this gives, so they cannot disagree. Standard library only;
the schema is in docs/model.md.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import field, fields
from functools import cache
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast

from toolwire.lint.records import record

# A preset's one-line description is not egress data.
_OTHER_KEYS = frozenset({"description"})
# What a framework preset says of its framework (`frameworks()`); not egress data either.
_FRAMEWORK_KEYS = frozenset({"modules", "extra", "adapter-module"})
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_LISTS = (
    "stringifiers",
    "string-methods",
    "str-methods",
    "formatters",
    "serialisers",
    "serialiser-attributes",
    "printers",
    "logger-modules",
    "logger-classes",
    "logger-factories",
    "logger-children",
    "log-methods",
    "wire-sinks",
    "egress-sinks",
    "state-sinks",
    "html-sinks",
    "serialiser-methods",
    "content-and-artifact",
    "run-only-arguments",
    "state-returns",
    "wire-returns",
    "instance-returns",
    "instance-attributes",
    "wrappers",
)
_TABLES = (
    "result-types",
    "artifact-types",
    "sources",
    "class-tools",
    "function-tools",
    "listed-tools",
)
STRING_FORMS = frozenset({"str", "repr", "format", "model_dump"})
# A run-only argument names its parameter by position and name (or `*` for keyword-only),
# so that matching a call needs no framework source.
_ARGUMENT = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+:(?:\d+|\*)=[A-Za-z_]\w*")
_RETURNS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}=[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_PARAMETER = re.compile(r"(?:\d+|\*)=[A-Za-z_]\w*")
_KIND = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w*=[^=]+")


class ModelError(Exception):
    """A model file that does not follow the schema: `file: key: problem`."""


def cached_hash(value: Any) -> int:
    """The hash of a frozen dataclass, computed once per process: a config or a model is a
    cache key in every module of a run, and hashing one walks all of it. Keyed by the
    process: a copy sent to a spawned worker (another hash seed) computes it again."""
    pid, found = value._hash
    here = os.getpid()
    if pid != here:
        found = hash(tuple(getattr(value, f.name) for f in fields(value) if f.compare))
        object.__setattr__(value, "_hash", (here, found))
    return cast(int, found)


def hash_slot() -> Any:
    """The field `cached_hash` keeps its value in: not compared, not shown, not an argument."""
    return field(default=(0, 0), init=False, repr=False, compare=False)


# The model's entries are NamedTuples: a frozen dataclass's methods are compiled from text when
# its class is built, 0.2-1 ms of every start-up each; a NamedTuple costs a tenth of that.
class ResultType(NamedTuple):
    """A type whose `wire` field goes to the provider and whose `run_only` fields never do."""

    name: str
    aliases: tuple[str, ...] = ()
    wire: str = "content"
    run_only: tuple[str, ...] = ("artifacts",)
    barriers: tuple[str, ...] = ("content", "is_error")
    safe_strings: frozenset[str] = frozenset()
    factories: tuple[str, ...] = ()
    framework: str = ""  # the preset that names it: its tools may return one whole

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


class ArtifactType(NamedTuple):
    """A run-only type: anything computed from one is run-only too."""

    name: str
    aliases: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


class Source(NamedTuple):
    """A call (`pkg.f`, `pkg.Class.method`) whose return value is a `returns` result; with
    `argument`, only when that argument is one of `argument_is`."""

    call: str
    returns: str
    argument: str = ""  # `N=name` (or `*=name`): the argument the condition is on
    # types (annotated as, or built by a call of) or `key=value` dict literals
    argument_is: tuple[str, ...] = ()


Wire = Literal["replace", "under", "factory"]


class ClassShape(NamedTuple):
    """Tools that are methods: `methods` (or the names listed in the class attribute
    `methods_from`) of subclasses of `bases`."""

    framework: str
    bases: frozenset[str]
    methods: tuple[str, ...]
    adapter: str
    local_import: bool
    methods_from: str = ""  # a class attribute listing the tool methods (`spec_functions`)
    # the adapter base wraps only the methods annotated to return a result; the others
    # pass through unchanged, so a method left as it is does not hold the class back
    wraps_annotated: bool = False


class FunctionShape(NamedTuple):
    """Tools that are functions: decorated, or handed to a factory."""

    framework: str
    decorators: frozenset[str]  # `@agents.function_tool`, `@tool(...)`
    instances: frozenset[str]  # with `attributes`: `@mcp.tool()` on `mcp = FastMCP(...)`
    attributes: frozenset[str]
    factories: frozenset[str]  # `FunctionTool.from_defaults(fn=f)`
    adapter: str
    wire: Wire
    local_import: bool
    refuse: frozenset[str] = frozenset()  # decorator keywords the adapter does not take
    # the factory's parameters that take the function, beside its first argument
    factory_keywords: tuple[str, ...] = ()
    # arguments that take a list of functions (`Agent(tools=[f])`): (position or None, name);
    # a factory with these takes no function as its first argument
    factory_lists: tuple[tuple[int | None, str], ...] = ()


class ListedShape(NamedTuple):
    """Tools migrate never rewrites, only lists with `reason`: `@X.attr()` where X is
    bound to one of `instances` (MCP's low-level `@server.call_tool()` returns content
    blocks for every tool, not a str), or a call of one of `calls` (`FunctionTool(...)`)."""

    framework: str
    instances: frozenset[str]
    attributes: frozenset[str]
    reason: str
    calls: frozenset[str] = frozenset()


class Shapes(NamedTuple):
    """Where a framework's tools are: what migrate rewrites, and what `check` treats as
    an egress sink (what a tool returns is what its framework sends)."""

    classes: tuple[ClassShape, ...] = ()
    functions: tuple[FunctionShape, ...] = ()
    listed: tuple[ListedShape, ...] = ()

    @property
    def methods(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m for c in self.classes for m in c.methods))

    @property
    def words(self) -> tuple[str, ...]:
        """Identifiers one of which a file must contain to hold a tool no `def` name finds."""
        names: list[str] = []
        for shape in self.functions:
            names += [d.rpartition(".")[2] for d in shape.decorators]
            names += list(shape.attributes)
            names += [f.rpartition(".")[2] for f in shape.factories]
        names += [c.methods_from for c in self.classes if c.methods_from]
        # a class tool's text names its base (`class Search(BaseTool)`); a method name
        # alone (`run_async`) is no marker
        names += [b.rpartition(".")[2] for c in self.classes for b in sorted(c.bases)]
        names += [a for shape in self.listed for a in sorted(shape.attributes)]
        names += [c.rpartition(".")[2] for shape in self.listed for c in sorted(shape.calls)]
        return tuple(dict.fromkeys(names))

    def __bool__(self) -> bool:
        return bool(self.classes or self.functions or self.listed)


@record
class Model:
    """The egress model: the core `model.toml` plus the selected presets, merged."""

    _hash: tuple[int, int] = hash_slot()
    __hash__ = cached_hash

    result_types: tuple[ResultType, ...] = ()
    artifact_types: tuple[ArtifactType, ...] = ()
    sources: tuple[Source, ...] = ()
    stringifiers: tuple[str, ...] = ()
    string_methods: tuple[str, ...] = ()
    str_methods: tuple[str, ...] = ()
    formatters: tuple[str, ...] = ()
    serialisers: tuple[str, ...] = ()
    serialiser_attributes: tuple[str, ...] = ()
    printers: tuple[str, ...] = ()
    logger_modules: tuple[str, ...] = ()
    logger_classes: tuple[str, ...] = ()
    logger_factories: tuple[str, ...] = ()
    logger_children: tuple[str, ...] = ()
    log_methods: tuple[str, ...] = ()
    wire_sinks: tuple[str, ...] = ()
    egress_sinks: tuple[str, ...] = ()
    state_sinks: tuple[str, ...] = ()
    html_sinks: tuple[str, ...] = ()
    serialiser_methods: tuple[str, ...] = ()
    content_and_artifact: tuple[str, ...] = ()  # `keyword=value`: the tool returns a pair
    # `pkg.Class:*=name` / `pkg.f:N=name`: an argument that goes to a run-only channel
    run_only_arguments: tuple[str, ...] = ()
    # `pkg.Class.method:N=name`: a function handed there returns into resumable state
    state_returns: tuple[str, ...] = ()
    # the same, for a function whose return value is what the model reads as the tool's answer
    wire_returns: tuple[str, ...] = ()
    # `pkg.Class.method=pkg.Other`: the method returns an instance of `Other` (the syntax
    # layer's typing of `app = builder.compile()`; mypy reads the declared return type)
    instance_returns: tuple[str, ...] = ()
    # `pkg.Class.attribute=pkg.Other`: reading the attribute (a property) gives an `Other`
    # (`tool_context.state` of an ADK `ToolContext` is its `State`)
    instance_attributes: tuple[str, ...] = ()
    # calls that build a structure around their arguments, computing nothing from them
    wrappers: tuple[str, ...] = ()
    class_tools: tuple[ClassShape, ...] = ()
    function_tools: tuple[FunctionShape, ...] = ()
    listed_tools: tuple[ListedShape, ...] = ()

    @property
    def shapes(self) -> Shapes:
        return Shapes(self.class_tools, self.function_tools, self.listed_tools)

    @property
    def logging_functions(self) -> tuple[str, ...]:
        """`logging.info`, ...: the module functions that log every argument."""
        return tuple(f"{m}.{level}" for m in self.logger_modules for level in self.log_methods)

    @property
    def logger_methods(self) -> tuple[str, ...]:
        """`logging.Logger.info`, ...: the logger methods that log every argument."""
        return tuple(f"{c}.{level}" for c in self.logger_classes for level in self.log_methods)

    @property
    def formatter_methods(self) -> frozenset[str]:
        """`format`, `join`, ...: the str methods among the formatters (not operators)."""
        return frozenset(
            name.rpartition(".")[2]
            for name in self.formatters
            if name.startswith("builtins.str.") and not name.endswith("__")
        )

    def result_type(self, name: str) -> ResultType | None:
        return next((t for t in self.result_types if name in t.names), None)


# -- reading ---------------------------------------------------------------------------------

# The package's own data files sit beside it (an installed wheel is unpacked); this
# spares every run importlib.resources and its imports.
_PACKAGE = Path(__file__).resolve().parent


def _read(folder: str | None, name: str) -> dict[str, Any]:
    file = _PACKAGE / folder / name if folder else _PACKAGE / name
    return tomllib.loads(file.read_text(encoding="utf-8"))


@cache
def preset_names() -> tuple[str, ...]:
    """The shipped presets, without reading them."""
    folder = _PACKAGE / "presets"
    return tuple(sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml")))


@cache
def preset(name: str) -> dict[str, Any]:
    return _read("presets", f"{name}.toml")


@cache
def presets() -> dict[str, dict[str, Any]]:
    """Every shipped preset, by name: one file `toolwire/lint/presets/<name>.toml` each."""
    return {name: preset(name) for name in preset_names()}


class Framework(NamedTuple):
    """A framework preset's own account of its framework: the one list of frameworks."""

    preset: str
    # the modules it is imported as (`langchain_core`, or `google.genai` where the top-level
    # package is shared); its adapter loads the first
    modules: tuple[str, ...]
    extra: str  # `pip install 'toolwire[<extra>]'` installs it
    adapter: str  # the adapter module its tool shapes name (`toolwire.adapters.x`), or ""


@cache
def frameworks() -> tuple[Framework, ...]:
    """The framework presets (those declaring `modules`), by name."""
    found = []
    for name in preset_names():
        where = f"toolwire/lint/presets/{name}.toml"
        _parse(where, preset(name), name)  # the whole file is well formed
        framework = _framework(where, name, preset(name))
        if framework is not None:
            found.append(framework)
    return tuple(found)


def _framework(where: str, name: str, data: Mapping[str, Any]) -> Framework | None:
    """`modules` and `extra`, and `adapter-module` where the preset has tool shapes (each
    shape's adapter is a name in it); None for a preset of no framework."""
    declared = _FRAMEWORK_KEYS & data.keys()
    shapes = [*data.get("class-tools", []), *data.get("function-tools", [])]
    if not declared and not shapes:
        return None
    needed = _FRAMEWORK_KEYS if shapes else _FRAMEWORK_KEYS - {"adapter-module"}
    missing = sorted(needed - declared)
    if missing:
        raise ModelError(
            f"{where}: {missing[0]}: a framework preset declares modules and extra, and "
            "adapter-module where it has tool shapes"
        )
    modules = _strings(where, "modules", data["modules"])
    if not modules or not all(_DOTTED.fullmatch(m) for m in modules):
        raise ModelError(f"{where}: modules: expected module names, got {modules!r}")
    extra, adapter = data["extra"], data.get("adapter-module", "")
    if not isinstance(extra, str) or not extra:
        raise ModelError(f"{where}: extra: expected the name of an optional dependency")
    if not isinstance(adapter, str) or (adapter and not _DOTTED.fullmatch(adapter)):
        raise ModelError(f"{where}: adapter-module: expected a dotted module name")
    for table in shapes:
        named = table.get("adapter")
        if isinstance(named, str) and named.rpartition(".")[0] != adapter:
            raise ModelError(f"{where}: adapter: {named!r} is not a name in {adapter}")
    return Framework(name, modules, extra, adapter)


def _strings(where: str, key: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ModelError(f"{where}: {key}: expected a list of strings, got {value!r}")
    return tuple(value)


def _result_type(where: str, table: Mapping[str, Any], framework: str = "") -> ResultType:
    known = {"class", "aliases", "wire", "run-only", "barriers", "safe-strings", "factories"}
    _no_unknown(where, "result-types", table, known)
    name = table.get("class")
    if not isinstance(name, str):
        raise ModelError(f"{where}: result-types: each needs a `class` name")
    wire = table.get("wire", "content")
    if not isinstance(wire, str):
        raise ModelError(f"{where}: result-types: {name}: `wire` is one field name")
    safe = frozenset(_strings(where, "safe-strings", table.get("safe-strings", [])))
    if safe - STRING_FORMS:
        raise ModelError(
            f"{where}: result-types: {name}: safe-strings are some of {sorted(STRING_FORMS)}"
        )
    return ResultType(
        name,
        _strings(where, "aliases", table.get("aliases", [])),
        wire,
        _strings(where, "run-only", table.get("run-only", [])),
        _strings(where, "barriers", table.get("barriers", [wire])),
        safe,
        _strings(where, "factories", table.get("factories", [])),
        framework,
    )


def _no_unknown(where: str, section: str, table: Mapping[str, Any], known: set[str]) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ModelError(f"{where}: {section}: unknown key {unknown[0]!r}")


def _tables(where: str, key: str, value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ModelError(f"{where}: {key}: expected an array of tables ([[{key}]])")
    return value


def _class_shape(where: str, framework: str, table: Mapping[str, Any]) -> ClassShape:
    known = {"bases", "methods", "methods-from", "adapter", "local-import", "wraps-annotated"}
    _no_unknown(where, "class-tools", table, known)
    methods_from = table.get("methods-from", "")
    if not isinstance(methods_from, str):
        raise ModelError(f"{where}: class-tools: `methods-from` is one attribute name")
    return ClassShape(
        framework,
        frozenset(_strings(where, "bases", table.get("bases", []))),
        _strings(where, "methods", table.get("methods", [])),
        _adapter(where, "class-tools", table),
        _flag(where, "class-tools", table, "local-import"),
        methods_from,
        _flag(where, "class-tools", table, "wraps-annotated"),
    )


def _function_shape(where: str, framework: str, table: Mapping[str, Any]) -> FunctionShape:
    known = {
        "decorators",
        "instances",
        "attributes",
        "factories",
        "factory-keywords",
        "factory-lists",
        "adapter",
        "wire",
        "local-import",
        "refuse-keywords",
    }
    _no_unknown(where, "function-tools", table, known)
    wire = table.get("wire", "replace")
    if wire not in ("replace", "under", "factory"):
        raise ModelError(f"{where}: function-tools: `wire` is replace, under or factory")
    return FunctionShape(
        framework,
        frozenset(_strings(where, "decorators", table.get("decorators", []))),
        frozenset(_strings(where, "instances", table.get("instances", []))),
        frozenset(_strings(where, "attributes", table.get("attributes", []))),
        frozenset(_strings(where, "factories", table.get("factories", []))),
        _adapter(where, "function-tools", table),
        cast(Wire, wire),
        _flag(where, "function-tools", table, "local-import"),
        frozenset(_strings(where, "refuse-keywords", table.get("refuse-keywords", []))),
        _strings(where, "factory-keywords", table.get("factory-keywords", [])),
        tuple(
            _list_argument(where, s)
            for s in _strings(where, "factory-lists", table.get("factory-lists", []))
        ),
    )


def _listed_shape(where: str, framework: str, table: Mapping[str, Any]) -> ListedShape:
    _no_unknown(where, "listed-tools", table, {"instances", "attributes", "calls", "reason"})
    reason = table.get("reason")
    if not isinstance(reason, str) or not reason:
        raise ModelError(f"{where}: listed-tools: each needs a `reason`")
    return ListedShape(
        framework,
        frozenset(_strings(where, "instances", table.get("instances", []))),
        frozenset(_strings(where, "attributes", table.get("attributes", []))),
        reason,
        frozenset(_strings(where, "calls", table.get("calls", []))),
    )


def _list_argument(where: str, spec: str) -> tuple[int | None, str]:
    """`"tools"` (a keyword) or `"0=tools"` (also the first positional argument)."""
    position, _, name = spec.rpartition("=")
    if not name.isidentifier() or (position and not position.isdigit()):
        raise ModelError(f"{where}: function-tools: `factory-lists` entries are NAME or N=NAME")
    return (int(position) if position else None), name


def _adapter(where: str, section: str, table: Mapping[str, Any]) -> str:
    adapter = table.get("adapter")
    if not isinstance(adapter, str):
        raise ModelError(f"{where}: {section}: each needs an `adapter` name")
    return adapter


def _flag(where: str, section: str, table: Mapping[str, Any], key: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ModelError(f"{where}: {section}: `{key}` is true or false")
    return value


def _parse(where: str, data: Mapping[str, Any], framework: str = "") -> dict[str, tuple[Any, ...]]:
    other = _OTHER_KEYS | _FRAMEWORK_KEYS if framework else _OTHER_KEYS
    unknown = sorted(set(data) - set(_LISTS) - set(_TABLES) - other)
    if unknown:
        raise ModelError(f"{where}: unknown key {unknown[0]!r}")
    out: dict[str, tuple[Any, ...]] = {}
    for key in _LISTS:
        if key in data:
            out[key] = _strings(where, key, data[key])
    for key in ("instance-returns", "instance-attributes"):
        for spec in out.get(key, ()):
            if not _RETURNS.fullmatch(spec):
                raise ModelError(f"{where}: {key}: {spec!r} is not 'pkg.Class.name=pkg.Class'")
    for key in ("run-only-arguments", "state-returns", "wire-returns"):
        for spec in out.get(key, ()):
            if not _ARGUMENT.fullmatch(spec):
                raise ModelError(
                    f"{where}: {key}: {spec!r} is not 'pkg.Callable:N=name' or "
                    "'pkg.Callable:*=name'"
                )
    out["result-types"] = tuple(
        _result_type(where, t, framework)
        for t in _tables(where, "result-types", data.get("result-types", []))
    )
    artifacts = []
    for table in _tables(where, "artifact-types", data.get("artifact-types", [])):
        _no_unknown(where, "artifact-types", table, {"class", "aliases"})
        if not isinstance(table.get("class"), str):
            raise ModelError(f"{where}: artifact-types: each needs a `class` name")
        artifacts.append(
            ArtifactType(table["class"], _strings(where, "aliases", table.get("aliases", [])))
        )
    out["artifact-types"] = tuple(artifacts)
    sources = []
    for table in _tables(where, "sources", data.get("sources", [])):
        _no_unknown(where, "sources", table, {"call", "returns", "argument", "argument-is"})
        call, returns = table.get("call"), table.get("returns")
        if not (isinstance(call, str) and isinstance(returns, str)):
            raise ModelError(f"{where}: sources: each needs `call` and `returns` names")
        argument = table.get("argument", "")
        kinds = _strings(where, "argument-is", table.get("argument-is", []))
        if (
            not isinstance(argument, str)
            or bool(argument) != bool(kinds)
            or (argument and not _PARAMETER.fullmatch(argument))
            or not all(_KIND.fullmatch(k) for k in kinds)
        ):
            raise ModelError(
                f"{where}: sources: {call}: `argument` ('N=name' or '*=name') and "
                "`argument-is` (dotted types or 'key=value' dict literals) go together"
            )
        sources.append(Source(call, returns, argument, kinds))
    out["sources"] = tuple(sources)
    out["class-tools"] = tuple(
        _class_shape(where, framework, t)
        for t in _tables(where, "class-tools", data.get("class-tools", []))
    )
    out["function-tools"] = tuple(
        _function_shape(where, framework, t)
        for t in _tables(where, "function-tools", data.get("function-tools", []))
    )
    out["listed-tools"] = tuple(
        _listed_shape(where, framework, t)
        for t in _tables(where, "listed-tools", data.get("listed-tools", []))
    )
    return out


@cache
def _core() -> dict[str, tuple[Any, ...]]:
    return _parse("toolwire/lint/model.toml", _read(None, "model.toml"))


@cache
def load_model(names: tuple[str, ...] = ()) -> Model:
    """The core model plus the named presets (unknown names are the caller's to report)."""
    parts = [_core()]
    known = preset_names() if names else ()
    for name in names:
        if name in known:
            parts.append(_parse(f"toolwire/lint/presets/{name}.toml", preset(name), name))
    return _merge(parts)


def shapes_for(names: tuple[str, ...]) -> Shapes:
    """The tool shapes of these presets, in their order."""
    return load_model(names).shapes


def _merge(parts: Iterable[dict[str, tuple[Any, ...]]]) -> Model:
    joined: dict[str, list[Any]] = {}
    for part in parts:
        for key, values in part.items():
            into = joined.setdefault(key.replace("-", "_"), [])
            into.extend(v for v in values if v not in into)
    return Model(**{key: tuple(values) for key, values in joined.items()})


# -- lookups ---------------------------------------------------------------------------------


class Index(NamedTuple):
    """The model as sets, for the checks' hot paths; one per model (`index(model)`)."""

    stringifiers: dict[str, str]  # dotted name -> the name shown (`str`)
    string_methods: frozenset[str]
    str_methods: frozenset[str]  # `startswith`, ...: what a result lacks that a str has
    formatter_methods: frozenset[str]  # `format`, `format_map`, `join`
    percent: bool  # `%` formats (builtins.str.__mod__)
    concat: bool  # `+` (builtins.str.__add__)
    serialisers: dict[str, str]
    serialiser_attributes: frozenset[str]
    serialiser_methods: frozenset[str]  # `model_dump_json`: the receiver, serialised
    printers: dict[str, str]  # print and the logging module functions
    logger_classes: frozenset[str]
    logger_factories: frozenset[str]
    logger_children: frozenset[str]  # `getChild`, `bind`: a logger's method giving a logger
    log_methods: frozenset[str]
    source_calls: dict[str, str]  # function or `Class.method` -> the result type it returns
    source_owners: frozenset[str]  # classes with a source method
    source_methods: frozenset[str]
    wire_fields: frozenset[str]  # attributes whose value is the wire text
    barriers: frozenset[str]  # attributes free of run-only data
    run_only: frozenset[str]
    wrappers: frozenset[str]  # a structure around exactly the wire field is that field


def _shown(name: str) -> str:
    """The name a reader knows: `str` for `builtins.str`, `pickle.dumps` for `_pickle.dumps`."""
    name = name.removeprefix("builtins.")
    return f"pickle.{name[8:]}" if name.startswith("_pickle.") else name


def _fields(result: ResultType) -> tuple[str, ...]:
    return (result.wire, *result.run_only, *result.barriers, *result.factories)


@cache
def index(model: Model) -> Index:
    owners = {s.call.rpartition(".")[0] for s in model.sources}
    return Index(
        {n: _shown(n) for n in model.stringifiers},
        frozenset(model.string_methods),
        frozenset(model.str_methods).difference(*(_fields(t) for t in model.result_types)),
        model.formatter_methods,
        "builtins.str.__mod__" in model.formatters,
        "builtins.str.__add__" in model.formatters,
        {n: _shown(n) for n in model.serialisers},
        frozenset(model.serialiser_attributes),
        frozenset(model.serialiser_methods),
        {n: _shown(n) for n in (*model.printers, *model.logging_functions)},
        frozenset(model.logger_classes),
        frozenset(model.logger_factories),
        frozenset(model.logger_children),
        frozenset(model.log_methods),
        {s.call: s.returns for s in model.sources},
        frozenset(owners),
        frozenset(s.call.rpartition(".")[2] for s in model.sources),
        frozenset(t.wire for t in model.result_types),
        frozenset(b for t in model.result_types for b in t.barriers),
        frozenset(f for t in model.result_types for f in t.run_only),
        frozenset(model.wrappers),
    )
