"""The `[tool.toolwire]` table: found, parsed and validated once for every front-end."""

from __future__ import annotations

import dataclasses
import keyword
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from toolwire.lint._discovery import find_config as find_config
from toolwire.lint.findings import escape
from toolwire.lint.model import Model, ResultType, cached_hash, hash_slot, load_model, preset
from toolwire.lint.model import preset_names as model_preset_names
from toolwire.lint.model import presets as presets
from toolwire.lint.records import record

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

_T = TypeVar("_T")

TABLE = "tool.toolwire"
DEFAULT_HTML_SINKS = load_model().html_sinks  # the core model's


UNREADABLE = "TW000"
MAX_CONFIG_BYTES = 4 * 1024 * 1024  # a config file is small; more is not a config


class ConfigError(Exception):
    """A bad config file; one line `path: key: problem` for every front-end.

    `key` is a key of the `[tool.toolwire]` table, or with `in_table=False` a key of the
    file itself (`tool`); `problem` says what is wrong with it.
    """

    def __init__(
        self, path: Path | None, key: str | None, problem: str, *, in_table: bool = True
    ) -> None:
        where = escape(str(path)) if path else "<config>"
        name = f"[{TABLE}] {key}" if key and in_table else key
        super().__init__(f"{where}: {name}: {problem}" if name else f"{where}: {problem}")
        self.path = path
        self.key = key
        self.problem = problem


@record
class CallSink:
    """A callable whose argument `param` (a position, a name, or both) is a sink.

    `target` is the dotted name of the callable, e.g. `myapp.chat.ChatMessage.tool_result`,
    as users import it; `aliases` are other names of it (the definition's, when `target`
    is a re-export). `index` counts positional arguments at the call site (no
    `self`/`cls`); a sink with both matches either way. A sink without `param` treats
    every argument as the payload (state and HTML sinks).
    """

    target: str
    index: int | None = None
    name: str | None = None
    spec: str = ""
    aliases: tuple[str, ...] = ()
    # Where to find the definition's name, looked up only when a checked module imports
    # from the target's package (`definitions()`): loading a config parses no framework.
    roots: tuple[Path, ...] = ()

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target, *self.aliases)

    def definitions(self) -> tuple[str, ...]:
        """`targets`, plus the definition's name of a sink given by position and name."""
        if not self.roots:
            return self.targets
        from toolwire.lint.signatures import find_signature

        signature = find_signature(self.target, self.roots)
        if signature is None or signature.definition == self.target:
            return self.targets
        return (*self.targets, signature.definition)

    @property
    def label(self) -> str:
        """The name a reader knows the sink by: `HumanMessage` of a class,
        `ChatMessage.tool_result` of a method, `mark_safe` of a function."""
        parts = self.target.split(".")
        if parts[-1] == "__setitem__" and len(parts) > 2:  # an item assignment: `State[...]`
            return f"{parts[-2]}[...]"
        if parts[-1][:1].isupper():
            return parts[-1]
        return ".".join(parts[-2:]) if len(parts) > 2 and parts[-2][:1].isupper() else parts[-1]

    @property
    def any_argument(self) -> bool:
        return self.index is None and self.name is None


class MessageSink(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """A dict literal `{key: value, ..., payload: X}` whose `payload` goes to the wire."""

    key: str
    value: str
    payload: str
    spec: str = ""


# A returned string that starts with one of these is an error (a heuristic of migrate).
DEFAULT_ERROR_MARKERS = ("Error", "ERROR", "error:", "Failed")


@record
class Config:
    """One resolved `[tool.toolwire]` table, with its egress model."""

    _hash: tuple[int, int] = hash_slot()
    __hash__ = cached_hash

    result_classes: tuple[str, ...] = ("toolwire.ToolResult",)
    tool_methods: tuple[str, ...] = ("execute",)
    tool_bases: tuple[str, ...] = ()
    # Set by migrate only: classes whose tool methods it left returning str. An instance
    # annotated with one is not a tool, whatever the value assigned (`d.get(k) or T()`).
    kept_tools: tuple[str, ...] = ()
    wire_sinks: tuple[CallSink, ...] = ()
    message_sinks: tuple[MessageSink, ...] = ()
    egress_sinks: tuple[CallSink, ...] = ()
    egress_message_sinks: tuple[MessageSink, ...] = ()
    state_sinks: tuple[CallSink, ...] = ()
    html_sinks: tuple[CallSink, ...] = ()
    seam: str = ""
    presets: tuple[str, ...] = ()
    error_markers: tuple[str, ...] = DEFAULT_ERROR_MARKERS
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    # Gitignore-style globs, relative to the directory of `source` (docs/configuration.md).
    exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # `toolwire check`'s baseline file, resolved against the config file's directory.
    baseline: Path | None = field(default=None, compare=False)
    model: Model = field(default_factory=load_model)
    source: Path | None = field(default=None, compare=False)

    @property
    def artifact_classes(self) -> tuple[str, ...]:
        """The artifact type lives beside each result class (`pkg.ToolArtifact`), plus the
        model's artifact types."""
        beside = (f"{c.rpartition('.')[0]}.ToolArtifact".lstrip(".") for c in self.result_classes)
        model = (n for t in self.model.artifact_types for n in t.names)
        return tuple(dict.fromkeys((*beside, *model)))

    @property
    def result_types(self) -> tuple[ResultType, ...]:
        """Every result type: the configured result classes (shaped as the core's
        ToolResult) and the presets' framework types."""
        core = self.model.result_types[0]
        mine = tuple(
            core if name in core.names else ResultType(name, (), *_shape(core))
            for name in self.result_classes
        )
        framework = tuple(t for t in self.model.result_types[1:] if t not in mine)
        return (*mine, *framework)

    @property
    def result_names(self) -> tuple[str, ...]:
        """Every dotted name of every result type (aliases included)."""
        return tuple(dict.fromkeys(n for t in self.result_types for n in t.names))

    @property
    def has_wire_sinks(self) -> bool:
        return bool(
            self.wire_sinks or self.message_sinks or self.egress_sinks or self.egress_message_sinks
        )

    def enabled(self, code: str) -> bool:
        return code_enabled(code, self.select, self.ignore)

    def with_overrides(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)

    def excludes(self, path: str | Path, *, is_dir: bool = False) -> bool:
        """`path` matches `exclude`/`extend-exclude` (never the config's own directory)."""
        if not self.exclude or self.source is None:
            return False
        relative = _relative(path, self.source)
        if not relative:
            return False
        return bool(_glob_spec(self.exclude).match_file(relative + "/" if is_dir else relative))

    def silenced(self, path: str | Path, code: str) -> bool:
        """`code` is not reported in `path`: its file is excluded with `force-exclude`
        (the hosts that name files themselves: flake8, mypy), or `per-file-ignores`
        drops it there."""
        if self.force_exclude and self.excludes(path):
            return True
        # TW000 (a file that cannot be read or parsed) is not a rule to waive: exclude it.
        return (
            bool(self.per_file_ignores)
            and code != UNREADABLE
            and any(code.startswith(p) for p in self.ignored_in(path))
        )

    def ignored_in(self, path: str | Path) -> tuple[str, ...]:
        """The codes and prefixes `per-file-ignores` drops in `path`."""
        if not self.per_file_ignores or self.source is None:
            return ()
        relative = _relative(path, self.source)
        if not relative:
            return ()
        found: list[str] = []
        for glob, codes in self.per_file_ignores:
            negated = glob.startswith("!")
            if bool(_glob_spec((glob[1:] if negated else glob,)).match_file(relative)) != negated:
                found += codes
        return tuple(found)


def _relative(path: str | Path, source: Path) -> str:
    """`path` relative to the directory of `source`, in POSIX form; "" when it is not
    below it. Both sides resolved the same way: `find_config` resolves the config's path."""
    base = _real(str(source.parent))
    full = os.path.abspath(path)
    for candidate in (full, os.path.join(_real(os.path.dirname(full)), os.path.basename(full))):
        if candidate.startswith(base.rstrip(os.sep) + os.sep):
            return Path(candidate[len(base.rstrip(os.sep)) + 1 :]).as_posix()
    return ""


@lru_cache(maxsize=4096)
def _real(directory: str) -> str:
    return os.path.realpath(directory)


@lru_cache(maxsize=256)
def _glob_spec(globs: tuple[str, ...]) -> Any:
    """The gitignore-style matcher of `globs` (pathspec, as for `.gitignore` files)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(globs)


def _shape(core: ResultType) -> tuple[Any, ...]:
    return (core.wire, core.run_only, core.barriers, core.safe_strings, core.factories)


def code_enabled(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """flake8 semantics: the longest matching prefix wins, select beats ignore on a tie.
    A rule that is off by default (TW001) needs a `select` that names it or a prefix."""
    if not select and code in off_by_default():
        return False
    best_select = max((len(p) for p in select if code.startswith(p)), default=-1 if select else 0)
    best_ignore = max((len(p) for p in ignore if code.startswith(p)), default=-1)
    return best_select >= 0 and best_select >= best_ignore


# -- parsing -------------------------------------------------------------------------------


def _is_dotted(name: str) -> bool:
    parts = name.split(".")
    return all(p.isidentifier() and not keyword.iskeyword(p) for p in parts) and len(parts) >= 2


def _str_list(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(path, key, f"expected a list of strings, got {value!r}")
    return tuple(value)


def _dotted(path: Path | None, key: str, name: str) -> str:
    if not _is_dotted(name):
        raise ConfigError(path, key, f"{name!r} is not a dotted name like 'package.module.Name'")
    return name


def parse_sink(
    path: Path | None, key: str, spec: str, roots: Sequence[Path]
) -> CallSink | MessageSink:
    """`pkg.mod.Class.method:param` or `key=value:payload` (a message literal).

    `param` is a position (`0`), a name (`content`) or both (`0=content`): with both, the
    spec alone says how to match a call, nothing is looked up. With a name alone, the
    position is read from the callable's source (re-exports followed), never imported.
    `*=name` is a keyword-only parameter (a pydantic model's field), matched by keyword.
    """
    head, sep, param = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if "=" in head:
        disc, _, value = head.partition("=")
        if not (disc and value and param):
            raise ConfigError(path, key, f"{spec!r}: a message sink is 'key=value:payload'")
        return MessageSink(disc.strip(), value.strip(), param.strip(), spec)
    target = _dotted(path, key, head)
    if not sep:
        return CallSink(target, spec=spec)
    if _is_index(param):
        return CallSink(target, index=int(param), spec=spec)
    position, _, name = param.partition("=") if "=" in param else ("", "", param)
    if not (_is_index(position or "0") or position == "*") or not name.isidentifier():
        raise ConfigError(
            path,
            key,
            f"{spec!r}: the parameter must be a position, a name, 'position=name' or '*=name'",
        )
    if position == "*":  # keyword-only (a pydantic model's field): matched by keyword
        return CallSink(target, name=name, spec=spec, roots=tuple(roots))
    if position:
        return CallSink(target, index=int(position), name=name, spec=spec, roots=tuple(roots))
    from toolwire.lint.signatures import find_signature  # only a sink given by name needs it

    signature = find_signature(target, roots)
    aliases: tuple[str, ...] = ()
    if signature is not None and signature.definition != target:
        aliases = (signature.definition,)
    if signature is None or not signature.accepts(name):
        raise _unlocatable(path, key, target, name, spec, roots)
    index = signature.position(name)
    return CallSink(target, index=index, name=name, spec=spec, aliases=aliases)


def _is_index(text: str) -> bool:
    return text.isascii() and text.isdigit()  # not '²': isdigit() takes it, int() does not


# -- loading -------------------------------------------------------------------------------

_KEYS = {
    "result-class",
    "egress-sinks",
    "tool-methods",
    "tool-bases",
    "wire-sinks",
    "presets",
    "error-markers",
    "state-sinks",
    "html-sinks",
    "seam",
    "select",
    "ignore",
    "exclude",
    "extend-exclude",
    "force-exclude",
    "per-file-ignores",
    "baseline",
}


def read_config_text(path: Path) -> str:
    """The text of a config file: a regular file of at most MAX_CONFIG_BYTES, in UTF-8.

    Opened without blocking and checked before reading, so a FIFO or a device (`/dev/zero`)
    is one ConfigError, not a hang or a read until memory runs out.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read: {exc.strerror}") from None
    try:
        # Checked before fdopen, which refuses a directory with an IsADirectoryError.
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise ConfigError(path, None, f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = "a directory, not a config file" if stat.S_ISDIR(mode) else "not a regular file"
        raise ConfigError(path, None, what)
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(MAX_CONFIG_BYTES + 1)
        except OSError as exc:
            raise ConfigError(path, None, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(path, None, f"larger than {MAX_CONFIG_BYTES // 1024 // 1024} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(path, None, f"not valid UTF-8 (byte {exc.start})") from None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_config_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, None, f"not valid TOML: {exc}") from None


def _tool_table(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """`data["tool"]`, which TOML allows to be anything (`tool = 1`)."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(path, "tool", f"expected a table, got {tool!r}", in_table=False)
    return tool


def load_config(path: Path | None) -> Config:
    """Read the table from `path` (a pyproject.toml or a toolwire.toml); None gives defaults."""
    if path is None:
        return config_from_table({})
    data = _read_toml(path)
    table = _tool_table(path, data).get("toolwire") if "tool" in data else data.get("toolwire")
    if table is None and path.name != "pyproject.toml":
        table = data
    elif "tool" not in data and path.name != "pyproject.toml" and len(data) > 1:
        # Keys at the top level and a [toolwire] table: one of them is surely a mistake.
        other = next(k for k in data if k != "toolwire")
        raise ConfigError(
            path,
            other,
            "keys at the top level and a [toolwire] table: put every key in one of them",
            in_table=False,
        )
    if table is None:
        raise ConfigError(path, None, f"no [{TABLE}] table")
    if not isinstance(table, dict):
        raise ConfigError(path, TABLE, f"expected a table, got {table!r}", in_table=False)
    return config_from_table(table, path)


class ConfigResolver:
    """The config of each file, for every front-end: `fixed` for all of them, else the
    nearest `[tool.toolwire]` table (looked up once per directory); each file loaded once,
    with `overrides` (Config field names) laid over it. A bad file raises its ConfigError
    every time it is asked for."""

    def __init__(self, fixed: Path | None = None, overrides: Mapping[str, Any] | None = None):
        self.fixed = fixed
        self._overrides = dict(overrides or {})
        self._by_dir: dict[Path, Path | None] = {}
        self._loaded: dict[Path | None, Config | ConfigError] = {}

    def source_for(self, path: Path) -> Path | None:
        """The config file for `path`, a file (which need not exist, as for stdin)."""
        if self.fixed is not None:
            return self.fixed
        # abspath, not resolve: a system call per component, and find_config resolves.
        directory = Path(os.path.abspath(path)).parent
        if directory not in self._by_dir:
            self._by_dir[directory] = find_config(directory)
        return self._by_dir[directory]

    def load(self, source: Path | None) -> Config:
        if source not in self._loaded:
            try:
                config = load_config(source)
                self._loaded[source] = (
                    config.with_overrides(**self._overrides) if self._overrides else config
                )
            except ConfigError as exc:
                self._loaded[source] = exc
        found = self._loaded[source]
        if isinstance(found, ConfigError):
            raise found
        return found

    def __call__(self, path: Path) -> Config:
        return self.load(self.source_for(path))


@cache
def resolver(fixed: Path | None = None) -> ConfigResolver:
    """The process-wide resolver without overrides (flake8, `python -m libcst.tool`)."""
    return ConfigResolver(fixed)


def config_from_table(table: dict[str, Any], path: Path | None = None) -> Config:
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(path, unknown[0], f"unknown key (known: {', '.join(sorted(_KEYS))})")
    roots = _search_roots(path)
    get = table.get
    result_classes = tuple(
        _dotted(path, "result-class", n)
        for n in _str_list(path, "result-class", get("result-class", ["toolwire.ToolResult"]))
    )
    if not result_classes:
        raise ConfigError(path, "result-class", "at least one result class is needed")
    # A framework preset names its own tool methods; `execute` is the default without one.
    preset_names = _str_list(path, "presets", get("presets", []))
    known_presets = model_preset_names() if preset_names else ()
    for name in preset_names:
        if name not in known_presets:
            raise ConfigError(
                path, "presets", f"unknown preset {name!r} (known: {', '.join(known_presets)})"
            )
    framework = any({"class-tools", "function-tools"} & preset(n).keys() for n in preset_names)
    tool_methods = _str_list(
        path, "tool-methods", get("tool-methods", [] if framework else ["execute"])
    )
    for method in tool_methods:
        if not method.isidentifier():
            raise ConfigError(path, "tool-methods", f"{method!r} is not a method name")
    tool_bases = tuple(
        _dotted(path, "tool-bases", n) for n in _str_list(path, "tool-bases", get("tool-bases", []))
    )
    model = _model(path, preset_names)
    wire_specs = [*_str_list(path, "wire-sinks", get("wire-sinks", [])), *model.wire_sinks]
    wire = [parse_sink(path, "wire-sinks", s, roots) for s in wire_specs]
    egress_specs = [*_str_list(path, "egress-sinks", get("egress-sinks", [])), *model.egress_sinks]
    egress = [parse_sink(path, "egress-sinks", s, roots) for s in egress_specs]
    state_specs = [*_str_list(path, "state-sinks", get("state-sinks", [])), *model.state_sinks]
    state = _call_sinks(path, "state-sinks", state_specs, roots)
    html = _call_sinks(path, "html-sinks", get("html-sinks", list(DEFAULT_HTML_SINKS)), roots)
    seam = get("seam", "")
    if not isinstance(seam, str):
        raise ConfigError(path, "seam", f"expected a string, got {seam!r}")
    if seam:
        _dotted(path, "seam", seam)
    markers = _str_list(path, "error-markers", get("error-markers", list(DEFAULT_ERROR_MARKERS)))
    select = _codes(path, "select", get("select", []))
    ignore = _codes(path, "ignore", get("ignore", []))
    exclude = (*_globs(path, "exclude", get("exclude", [])),)
    exclude += _globs(path, "extend-exclude", get("extend-exclude", []))
    force_exclude = get("force-exclude", False)
    if not isinstance(force_exclude, bool):
        raise ConfigError(path, "force-exclude", f"expected true or false, got {force_exclude!r}")
    return Config(
        result_classes=result_classes,
        tool_methods=tool_methods,
        tool_bases=tool_bases,
        wire_sinks=tuple(_dedupe(s for s in wire if isinstance(s, CallSink))),
        message_sinks=tuple(_dedupe(s for s in wire if isinstance(s, MessageSink))),
        egress_sinks=tuple(_dedupe(s for s in egress if isinstance(s, CallSink))),
        egress_message_sinks=tuple(_dedupe(s for s in egress if isinstance(s, MessageSink))),
        model=model,
        state_sinks=state,
        html_sinks=html,
        seam=seam,
        presets=preset_names,
        error_markers=markers,
        select=select,
        ignore=ignore,
        exclude=exclude,
        force_exclude=force_exclude,
        per_file_ignores=_per_file_ignores(path, get("per-file-ignores", {})),
        baseline=_baseline(path, get("baseline")),
        source=path,
    )


def _baseline(path: Path | None, value: object) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(path, "baseline", f"expected a file path, got {value!r}")
    base = path.parent if path is not None else Path.cwd()
    return Path(os.path.abspath(base / value))


def _dedupe(items: Iterable[_T]) -> list[_T]:
    return list(dict.fromkeys(items))


def _call_sinks(
    path: Path | None, key: str, value: object, roots: Sequence[Path]
) -> tuple[CallSink, ...]:
    sinks = []
    for spec in _str_list(path, key, value):
        sink = parse_sink(path, key, spec, roots)
        if not isinstance(sink, CallSink):
            raise ConfigError(path, key, f"{spec!r}: only call sinks are allowed here")
        sinks.append(sink)
    return tuple(sinks)


def _codes(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    codes = _str_list(path, key, value)
    for code in codes:
        problem = code_problem(code)
        if problem is not None:
            raise ConfigError(path, key, problem)
    return codes


def _globs(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    globs = _str_list(path, key, value)
    for glob in globs:
        problem = _glob_problem(glob)
        if problem is not None:
            raise ConfigError(path, key, f"{glob!r}: {problem}")
    return globs


def _glob_problem(glob: str) -> str | None:
    if not glob.strip() or glob.lstrip().startswith("#"):
        return "not a glob (empty, or a comment in gitignore syntax)"
    try:
        _glob_spec((glob,))
    except Exception as exc:  # pathspec's errors differ across versions
        return f"not a gitignore-style glob ({exc})"
    return None


def _per_file_ignores(path: Path | None, value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`{glob: [codes]}`, each glob checked as `exclude`'s, each code as `ignore`'s."""
    key = "per-file-ignores"
    if not isinstance(value, dict):
        raise ConfigError(path, key, f"expected a table of glob = [codes], got {value!r}")
    found = []
    for glob, codes in value.items():
        problem = _glob_problem(glob.removeprefix("!"))
        if problem is not None:
            raise ConfigError(path, key, f"{glob!r}: {problem}")
        found.append((glob, _codes(path, f"{key}.{_toml_key(glob)}", codes)))
    return tuple(found)


def _toml_key(glob: str) -> str:
    bare = glob.replace("-", "").replace("_", "").isalnum()
    return glob if bare else '"' + glob.replace("\\", "\\\\").replace('"', '\\"') + '"'


def code_problem(code: str) -> str | None:
    """Why `code` cannot be a `select`/`ignore` entry, or None: it must be a TW code or
    prefix that some rule has (`TW310` selects nothing, so every rule would be off)."""
    if not (code == "TW" or (code.startswith("TW") and code[2:].isascii() and code[2:].isdigit())):
        return f"{code!r} is not a TW code or prefix"
    known = known_codes()
    if not known or any(c.startswith(code) for c in known):
        return None
    from toolwire.lint.catalog import nearest

    hint = nearest(code) if len(code) == 5 else []
    suggestion = f"did you mean {', '.join(hint)}?" if hint else "`toolwire rules` lists them"
    return f"{code!r} names no toolwire rule or prefix of one ({suggestion})"


@cache
def known_codes() -> frozenset[str]:
    """The codes of the rule catalog, from its file names (no rule file is parsed)."""
    try:
        names = [entry.name for entry in _rule_files()]
    except OSError:  # no catalog to check against: accept well-formed codes
        return frozenset()
    return frozenset(
        n[:-3] for n in names if len(n) == 8 and n.startswith("TW") and n.endswith(".md")
    )


@cache
def off_by_default() -> frozenset[str]:
    """The codes whose rule file says `default = false` in its front matter; read from
    the text, as `known_codes`, so that loading a config parses no rule file."""
    found = set()
    try:
        for entry in _rule_files():
            if len(entry.name) == 8 and entry.name.startswith("TW") and entry.name[2:5].isdigit():
                if _DEFAULT_OFF.search(_front_matter(entry)):
                    found.add(entry.name[:5])
    except OSError:
        return frozenset()
    return frozenset(found)


def _front_matter(entry: Traversable) -> str:
    """The front matter of a rule file, read alone: the rest (its examples) is most of it."""
    data = b""
    with entry.open("rb") as handle:
        while b"\n+++\n" not in data:
            chunk = handle.read(2048)
            if not chunk:
                break
            data += chunk
    return data.partition(b"\n+++\n")[0].decode("utf-8")


def _rule_files() -> list[Traversable]:
    """The entries of the rule catalog; OSError when there is none."""
    from toolwire.lint.rulefiles import rules_path

    path = rules_path()
    if path is not None:
        return list(path.iterdir())
    from toolwire.lint.catalog import CatalogError, rules_dir

    try:
        return list(rules_dir().iterdir())
    except CatalogError as exc:
        raise OSError(str(exc)) from None


_DEFAULT_OFF = re.compile(r"^default\s*=\s*false\b", re.M)


def _model(path: Path | None, preset_names: Sequence[str]) -> Model:
    from toolwire.lint.model import ModelError

    try:
        return load_model(tuple(preset_names))
    except ModelError as exc:
        raise ConfigError(path, "presets", str(exc)) from None


def _unlocatable(
    path: Path | None, key: str, target: str, name: str, spec: str, roots: Sequence[Path]
) -> ConfigError:
    return ConfigError(
        path,
        key,
        f"{spec!r}: cannot find parameter {name!r} of {target} in the project "
        f"({roots[0] if roots else '.'}) or on sys.path; give its position and name "
        f"instead ('{target}:N={name}', N counting the call's arguments from 0), check "
        "the name, or, in an environment of its own (a pre-commit hook, a CI job), install "
        "the package that defines it there (pre-commit: additional_dependencies)",
    )


def _search_roots(path: Path | None) -> list[Path]:
    """Where sink modules are looked up: the project root, its `src/`, then `sys.path`."""
    import sys

    roots: list[Path] = []
    if path is not None:
        project = path.resolve().parent
        roots += [project, project / "src"]
    roots += [Path(p) for p in sys.path if p and Path(p).is_dir()]
    return roots
