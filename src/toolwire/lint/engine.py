"""The syntax layer's one pipeline: source → parse once → facts → checks → findings.

Every front-end (flake8, `toolwire check`, the wire-content codemod) calls into here.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import gc
import io
import os
import re
import sys
import tokenize
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from toolwire.lint.config import Config
from toolwire.lint.files import read_quietly, real_path
from toolwire.lint.findings import Finding, unreadable
from toolwire.lint.suppressions import Suppressions

if TYPE_CHECKING:
    from toolwire.lint.analysis.modules import Exports, Graph, Link
    from toolwire.lint.analysis.run import Parsed
    from toolwire.lint.cache import Payload, ResultCache

_ANALYSIS_DEPTH = 20_000
TOO_DEEP_TO_ANALYSE = "cannot analyse: too deeply nested"
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")  # before UTF-16: same first bytes
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Syntax of a later Python than the one running toolwire (PEP 695 is 3.12).
_NEWER_SYNTAX = re.compile(r"^\s*(type\s+\w+\s*[\[=]|(async\s+)?(def|class)\s+\w+\s*\[)")
# Python's tokenizer, and so every line number of a tree, breaks lines only here.
_BREAK = re.compile(r"\r\n|\r|\n")


def batch_gc() -> None:
    """Tune the collector for a run over many files: each parse makes many short-lived AST
    nodes and few cycles, so young collections are made rarer (as mypy does) and what is
    loaded before the run is frozen out of them."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def decode(source: bytes, path: str) -> tuple[str | None, Finding | None]:
    """Text of a module as Python reads it (coding cookie, BOM), or a TW000 finding."""
    for boms, name in ((_UTF32_BOMS, "UTF-32"), (_UTF16_BOMS, "UTF-16")):
        if source.startswith(boms):
            return None, unreadable(path, f"cannot decode: a {name} file; Python source is UTF-8")
    if b"\x00" in source:
        line = source[: source.index(b"\x00")].count(b"\n") + 1
        return None, unreadable(path, "cannot parse: source contains a NUL byte", line)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        text = source.decode(encoding)
    except (SyntaxError, LookupError) as exc:
        return None, unreadable(path, f"cannot decode: {exc}")
    except UnicodeDecodeError as exc:
        line = source[: exc.start].count(b"\n") + 1
        return None, unreadable(path, f"cannot decode: not valid {exc.encoding}", line)
    return text.removeprefix("\ufeff"), None


def parse(text: str, path: str) -> tuple[ast.Module | None, Finding | None]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=path), None
    except SyntaxError as exc:
        line, col = exc.lineno or 1, exc.offset or 1
        return None, unreadable(path, f"cannot parse: {exc.msg}{_newer(text, line)}", line, col)
    except (RecursionError, MemoryError):
        # The parser's own depth guard; its MemoryError has no message at all.
        return None, unreadable(path, "cannot parse: too deeply nested")
    except ValueError as exc:
        return None, unreadable(path, f"cannot parse: {exc or type(exc).__name__}")


def source_lines(text: str) -> list[str]:
    """The lines of a module as its tree numbers them: a form feed on a line of its own,
    common in older code, is no line break, where `str.splitlines` makes it one."""
    lines = text.splitlines()
    breaks = text.count("\n")
    if "\r" in text:
        breaks += text.count("\r") - text.count("\r\n")
    last = text[-1:]
    ended = last in ("", "\n", "\r")
    if len(lines) == breaks + (not ended) and (ended or last.splitlines() == [last]):
        return lines  # no other break (counting is cheaper than searching for them)
    lines = _BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def _newer(text: str, line: int) -> str:
    """Why valid code of a later Python does not parse here."""
    if sys.version_info >= (3, 12):
        return ""
    lines = source_lines(text)
    if 0 < line <= len(lines) and _NEWER_SYNTAX.match(lines[line - 1]):
        return (
            " (type parameter syntax, PEP 695, needs Python 3.12; toolwire runs on "
            f"{sys.version_info.major}.{sys.version_info.minor})"
        )
    return ""


def check_source(
    source: bytes | str,
    path: str,
    config: Config,
    *,
    module: str | None = None,
    known_tools: frozenset[str] = frozenset(),
    suppress: bool = True,
    link: Link | None = None,
) -> list[Finding]:
    """All findings for one module, sorted. TW000 when it cannot be decoded or parsed.

    `module` is the dotted module name (needed for TW303); `known_tools` adds dotted class
    names whose instances count as tools (the classes a migration run is migrating).
    `suppress` honours `# noqa` and `# toolwire: ignore[...]` comments. Inside `linked()`,
    a module of the run is checked after the modules it imports, with their exports.
    """
    if link is None and _PROJECT is not None and module is not None and suppress:
        found = _PROJECT.check(source, path, module)
        if found is not None:
            return found
    store = _CACHE
    if store is None or link is not None or not suppress or known_tools or isinstance(source, str):
        return _check_source(source, path, config, module, known_tools, suppress, link)
    from toolwire.lint import cache

    key = cache.key(config, path, module, cache.digest(source), None)
    hit = cache.hit(store, key)
    if hit is not None:
        return hit[0]
    found = _check_source(source, path, config, module, known_tools, suppress, link)
    store.put(key, cache.encode(found, None))
    return found


def _check_source(
    source: bytes | str,
    path: str,
    config: Config,
    module: str | None,
    known_tools: frozenset[str],
    suppress: bool,
    link: Link | None,
) -> list[Finding]:
    if isinstance(source, bytes):
        text, problem = decode(source, path)
        if text is None:
            return [problem] if problem else []
    else:
        text = source
    tree, problem = parse(text, path)
    if tree is None:
        return [problem] if problem else []
    from toolwire.lint.analysis.run import Parsed

    lines = source_lines(text)
    findings = check_parsed(Parsed(tree, lines, path, config, module, known_tools, link, text))
    if suppress:  # `per-file-ignores`: suppression comments kept in the config
        from toolwire.lint.checks.tw001 import unused

        comments = Suppressions(lines, text)
        findings = [
            f
            for f in findings + unused(findings, comments, config, path)
            if not comments.suppressed(f.line, f.code) and not config.silenced(path, f.code)
        ]
        findings.sort()
    return findings


def check_parsed(parsed: Parsed) -> list[Finding]:
    """Findings for a parsed module, before suppression comments (flake8 applies its own)."""
    from toolwire.lint.analysis.run import analyse
    from toolwire.lint.checks import visitors

    config = parsed.config
    # A bug in a check raises: each front-end turns it into its own typed internal error
    # (a RunError, a TW000 of flake8's, a file migrate leaves as it was).
    try:
        with deep_walks():
            findings = analyse(parsed, visitors(config.select, config.ignore))
    except RecursionError:
        return [unreadable(parsed.path, TOO_DEEP_TO_ANALYSE)]
    # The enabled checks alone ran (`checks.visitors`), and the flow keeps one finding per
    # line, column and code: what is left is the order.
    return sorted(findings)


@contextlib.contextmanager
def deep_walks(depth: int = _ANALYSIS_DEPTH) -> Iterator[None]:
    """Room for a recursive walk of a parsed tree (the flow, `ast.NodeVisitor`, LibCST).

    A walk recurses once per nesting level, as ast does; Python frames cost no C stack on
    3.11+, so a deep but valid expression gets room instead of a TW000. What is deeper
    still raises RecursionError: report it as TOO_DEEP_TO_ANALYSE.
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, depth))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def module_name(path: Path, config: Config) -> str | None:
    """Dotted module name of `path`, relative to the project root or its `src/`; without
    a config file the root is the working directory, as for `python -m`."""
    if config.source is None:
        try:
            bases = _bases_at(os.getcwd())
        except OSError:  # the working directory is gone: no root to name modules from
            return None
    else:
        bases = _bases(config.source)
    return _module_at(os.path.abspath(path), bases)


@functools.lru_cache(maxsize=1 << 16)
def _module_at(absolute: str, bases: tuple[str, str]) -> str | None:
    """Once per file and root: migrate asks for each file in several steps, and a file
    outside the root costs a system call (is it a link?) each time."""
    # Resolving costs a system call per path component: the plain absolute path first.
    found = _module_under(absolute, bases)
    if found is None:
        real = real_path(absolute)
        found = _module_under(real, bases) if real != absolute else None
    return found or None


def _module_under(where: str, bases: tuple[str, str]) -> str | None:
    """The dotted name of file `where` below the first base holding it ("" when that is
    no module name), or None when no base holds it. Strings, not PurePath: once per file."""
    for base in bases:
        if where.startswith(base):
            parts = os.path.splitext(where[len(base) :])[0].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join(parts) if parts and all(p.isidentifier() for p in parts) else ""
    return None


@functools.cache
def _bases(source: Path) -> tuple[str, str]:
    root = str(_project_root(source)).rstrip(os.sep)
    return (root + os.sep + "src" + os.sep, root + os.sep)


@functools.lru_cache(maxsize=8)
def _bases_at(root: str) -> tuple[str, str]:
    root = root.rstrip(os.sep)
    return (root + os.sep + "src" + os.sep, root + os.sep)


@functools.cache
def _project_root(source: Path) -> Path:
    return source.resolve().parent


# -- across the modules of one run ------------------------------------------------------------


class Unit(Protocol):
    """A file of a `toolwire check` run."""

    @property
    def path(self) -> str: ...
    @property
    def display(self) -> str: ...
    @property
    def config(self) -> Config: ...
    @property
    def module(self) -> str | None: ...


_PROJECT: Project | None = None
_CACHE: ResultCache | None = None


@contextlib.contextmanager
def cached(store: ResultCache | None) -> Iterator[None]:
    """Within this block, `check_source` reuses and records results in `store` (`cache.py`).
    Worker processes forked inside the block inherit it, and hand back what they add."""
    global _CACHE
    saved = _CACHE
    _CACHE = store
    try:
        yield
    finally:
        _CACHE = saved


def caching() -> bool:
    """Inside `cached()` with a store."""
    return _CACHE is not None


def cache_drain() -> dict[bytes, Payload]:
    """What this process added to the cache since the last call."""
    return _CACHE.drain() if _CACHE is not None else {}


def cache_absorb(fresh: dict[bytes, Payload]) -> None:
    """Results a worker process added to the cache (its `cache_drain`)."""
    if _CACHE is not None:
        _CACHE.absorb(fresh)


def cached_findings(unit: Unit) -> list[Finding] | None:
    """Inside `linked()` and `cached()`, the findings of a file of the run from the cache,
    without analysing anything: a linked module's when the cache holds its imports' too,
    another's when its record stood for its bytes (it was not read)."""
    if _PROJECT is None or _CACHE is None:
        return None
    linked = _PROJECT.answered(unit)
    if linked is not None:
        return linked
    content = _PROJECT.unread(unit)
    if content is None:
        return None
    from toolwire.lint import cache

    hit = cache.hit(_CACHE, cache.key(unit.config, unit.display, unit.module, content, None))
    return None if hit is None else hit[0]


def kept_source(module: str | None, path: str) -> bytes | None:
    """Inside `linked()`, the bytes its first pass read of this module (see `Project`)."""
    return _PROJECT.source(module, path) if _PROJECT is not None else None


@contextlib.contextmanager
def linked(units: Sequence[Unit]) -> Iterator[None]:
    """Within this block, `check_source` of a module of `units` sees what the modules it
    imports export. Worker processes forked inside the block inherit it."""
    global _PROJECT
    saved = _PROJECT
    _PROJECT = Project(units) if len(units) > 1 else None
    try:
        yield
    finally:
        _PROJECT = saved


class Project:
    """The modules of one run: a first pass over their text (the import graph, no parse),
    then each module checked once, after the modules it imports."""

    def __init__(self, units: Sequence[Unit]) -> None:
        from toolwire.lint.analysis.modules import Graph, markers, scan
        from toolwire.lint.analysis.names import is_package

        self._units: dict[str, Unit] = {}
        self._spare: dict[str, bytes] = {}  # bytes read of the files not linked
        self._unread: dict[str, bytes] = {}  # display path -> digest, when its record stood
        self._found: dict[int, Callable[[bytes], bool]] = {}  # by id: units hold configs
        texts: dict[str, bytes | None] = {}
        marks: dict[str, bool | None] = {}
        twice = set()
        for unit in units:
            if unit.module is None and _CACHE is None:
                continue  # read by its own check: in a worker, when there are workers
            if unit.module is not None and unit.module in self._units:
                twice.add(unit.module)  # two files, one module name: neither is linked
                continue
            seen = self._see(unit)
            if seen is None:
                continue
            if unit.module is None:
                if seen[0] is not None:
                    self._spare[unit.display] = seen[0]
                continue
            texts[unit.module], marks[unit.module] = seen
            self._units[unit.module] = unit
        for module in twice:
            del self._units[module], texts[module]
        # Linking starts from the modules whose text may hold a result: with none, there
        # is nothing to link and no import to read.
        # The bytes read are kept for `check_file` either way: each file is read once.
        if not any(self._marked(m, texts[m], marks[m]) for m in texts):
            self._spare.update((self._units[m].display, d) for m, d in texts.items() if d)
            self._units.clear()
            texts.clear()
        data = self._read_all(texts)
        scans = {
            m: scan(d, m, markers(self._units[m].config), is_package(self._units[m].path))
            for m, d in data.items()
        }
        self.graph: Graph = Graph(scans)
        self._done: dict[str, list[Finding]] = {}
        self._exports: dict[str, Exports] = {}
        # Each module is checked from the bytes this pass read, so the import graph and
        # the findings are of the same text; they are dropped at the module's own turn.
        self._data = data

    def _see(self, unit: Unit) -> tuple[bytes | None, bool | None] | None:
        """The bytes of `unit` (None when its cache record stands for them) and whether
        they hold a marker (None: not yet known); None when it cannot be read."""
        if _CACHE is None:
            data = read_quietly(unit.path)
            return None if data is None else (data, None)
        from toolwire.lint import cache

        seen = cache.sight(_CACHE, unit.config, unit.path, self._markers(unit.config))
        if seen is None:
            return None
        if seen[0] is None:
            self._unread[unit.display] = seen[1]
        return seen[0], seen[2]

    def _marked(self, module: str, data: bytes | None, mark: bool | None) -> bool:
        if mark is not None or data is None:
            return bool(mark)
        return self._markers(self._units[module].config)(data)

    def _markers(self, config: Config) -> Callable[[bytes], bool]:
        """`markers(config).found`, by the config's identity (a hash is a call a file)."""
        found = self._found.get(id(config))
        if found is None:
            from toolwire.lint.analysis.modules import markers

            found = self._found[id(config)] = markers(config).found
        return found

    def _read_all(self, texts: dict[str, bytes | None]) -> dict[str, bytes]:
        """The bytes of every linked module: the import graph needs them all."""
        data: dict[str, bytes] = {}
        for module, text in texts.items():
            if text is None:
                self._unread.pop(self._units[module].display, None)
                text = read_quietly(self._units[module].path)
                if text is None:
                    del self._units[module]
                    continue
            data[module] = text
        return data

    def unread(self, unit: Unit) -> bytes | None:
        """The digest of a file not linked whose cache record stood for its bytes."""
        return self._unread.get(unit.display)

    def source(self, module: str | None, path: str) -> bytes | None:
        """The bytes read of `module` at `path`, when they are kept and not yet used."""
        unit = self._units.get(module or "")
        if unit is None or unit.display != path:
            return self._spare.pop(path, None)
        return self._data.pop(module or "", None)

    def check(self, source: bytes | str, path: str, module: str) -> list[Finding] | None:
        """The findings of `module`, or None when it is not a module of the run."""
        unit = self._units.get(module)
        if unit is None or unit.display != path:
            return None
        done = self._done.get(module)
        if done is not None:
            return done
        from toolwire.lint.files import read

        for dep in self.graph.order(module, self._done):
            other = self._units[dep]
            data = self._data.get(dep) or read(Path(other.path))
            self._done[dep] = (
                [dataclasses.replace(data, path=other.display)]
                if isinstance(data, Finding)
                else self._check(other, data)
            )
        found = self._done[module] = self._check(unit, source)
        return found

    def answered(self, unit: Unit) -> list[Finding] | None:
        """The findings of a linked module when the cache holds them, and those of every
        module it imports (their exports make its key); else None, as for a module not
        linked. Nothing is analysed."""
        module = unit.module
        mine = self._units.get(module or "")
        if module is None or mine is None or mine.display != unit.display:
            return None
        for dep in [*self.graph.order(module, self._done), module]:
            if dep in self._done:
                continue
            data = self._data.get(dep)
            if data is None:
                return None
            found = self._hit(self._units[dep], data, self._link(dep))[0]
            if found is None:
                return None
            self._done[dep] = found
        return self._done[module]

    def _check(self, unit: Unit, source: bytes | str) -> list[Finding]:
        module = unit.module or ""
        link = self._link(module)
        found, key = self._hit(unit, source, link)
        if found is not None:
            return found
        found = check_source(source, unit.display, unit.config, module=unit.module, link=link)
        self._exports[module] = link.exports
        if _CACHE is not None and key is not None:
            from toolwire.lint import cache

            _CACHE.put(key, cache.encode(found, link.exports))
        return found

    def _link(self, module: str) -> Link:
        """What `module` is given of the exports of the modules it imports."""
        from toolwire.lint.analysis.modules import Link

        link = Link(demanded=frozenset(self.graph.demanded.get(module, ())))
        tools: set[str] = set()
        wanted = self.graph.imports.get(module, set())
        for dep in self.graph.deps.get(module, ()):
            exports = self._exports.get(dep)
            if exports is None:
                continue
            whole = dep in wanted  # `import dep`: any of its names may be used
            tools.update(t for t in exports.tools if whole or t in wanted)
            for name, export in exports.functions.items():
                if whole or name in wanted:
                    link.functions[name] = export
            for name, members in exports.classes.items():
                if whole or name in wanted:
                    link.classes[name] = members
        link.tools = frozenset(tools)
        return link

    def _hit(
        self, unit: Unit, source: bytes | str, link: Link
    ) -> tuple[list[Finding] | None, bytes | None]:
        """The cached findings of a linked module (its exports noted), and its key."""
        if _CACHE is None or not isinstance(source, bytes):
            return None, None
        from toolwire.lint import cache

        content, given = cache.digest(source), cache.link_input(link)
        key = cache.key(unit.config, unit.display, unit.module, content, given)
        hit = cache.hit(_CACHE, key)
        if hit is None or hit[1] is None:
            return None, key
        self._exports[unit.module or ""] = hit[1]
        return hit[0], key
