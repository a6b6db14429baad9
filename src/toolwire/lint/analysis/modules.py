"""Across the modules of one `toolwire check` run: what each module exports to the modules
that import it (its tool classes and its functions' summaries), and a cheap first pass over
the text of every file that says which module imports which names.

The first pass reads bytes and matches import statements with a regular expression; it
parses nothing. Each file is then parsed once, after the modules it imports (a module in
an import cycle sees the exports of the cycle's modules checked before it). flake8 checks
one file at a time and gets none of this: its summaries stay within the module.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Container, Iterable, Iterator
from typing import NamedTuple

import toolwire.lint.analysis.labels as L
from toolwire.lint.config import Config
from toolwire.lint.patterns import lazy

# The argument labels a summary is computed for, and what an argument must hold to use it.
KINDS = (
    (L.RESULT, L.RESULT),
    (L.RESULTS, L.RESULTS | L.MAPPING),
    (L.ARTIFACT, L.ARTIFACT),
    (L.CONTENT | L.STR, L.CONTENT),
    (L.DERIVED, L.DERIVED),
)


# The immutable records are NamedTuples: a frozen dataclass compiles its methods from text
# when its class is built (0.2-1 ms of each start-up; a cache hit imports this module).
class Effect(NamedTuple):
    """What a function does when `param` holds `kind`: its return, and what it reports."""

    param: str
    kind: int
    returns: int
    # (module, line, code, message) where it happens: in this function's module, or
    # further down a chain of calls into other modules
    findings: tuple[tuple[str, int, str, str], ...]


class FunctionExport(NamedTuple):
    """What a module-level function does with its arguments, as its importers see it."""

    returns: int  # what a call returns when no argument holds anything tracked
    params: tuple[str, ...] = ()  # positional parameters, in order
    keywords: frozenset[str] = frozenset()  # parameters that may be passed by name
    effects: tuple[Effect, ...] | None = None  # None: not summarised per parameter


class ClassExport(NamedTuple):
    """What an instance of a class gives: its fields (annotated, or set by its methods) and
    its methods' declared returns, where they hold something tracked."""

    attributes: tuple[tuple[str, int], ...] = ()
    returns: tuple[tuple[str, int], ...] = ()


# The mutable records are plain classes, for the same reason: no code compares them.
class Exports:
    """What a module gives the modules that import it."""

    def __init__(
        self,
        tools: frozenset[str] = frozenset(),  # dotted names of its tool classes
        functions: dict[str, FunctionExport] | None = None,  # by dotted name
        classes: dict[str, ClassExport] | None = None,  # by dotted name
    ) -> None:
        self.tools = tools
        self.functions = {} if functions is None else functions
        self.classes = {} if classes is None else classes


class Link:
    """One module's view of the run: in, what the modules it imports export and which of
    its own names other modules import; out, its exports (set by the analysis)."""

    def __init__(self, demanded: frozenset[str] = frozenset()) -> None:
        self.tools: frozenset[str] = frozenset()
        self.functions: dict[str, FunctionExport] = {}
        self.classes: dict[str, ClassExport] = {}
        self.demanded = demanded  # its top-level names imported by relevant modules
        self.exports = Exports()


# Each pattern starts with a newline, searched for in the text with one put in front: a
# literal first character lets `re` skip ahead, where `^` under re.M tries every position.
# One pattern for both forms: one pass over the text.
_IMPORTS = lazy(
    rb"\n[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n]*(?:\\\r?\n[^\n]*)*)"
    rb"|import[ \t]+([^\n#;]*))"
)
_COMMENT = lazy(rb"#[^\n]*")


class Scan(NamedTuple):
    """What the first pass reads of a module's text: its markers, imports and definitions."""

    data: bytes
    markers: Markers
    imports: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (module, (name, local))


def scan(data: bytes, module: str, markers: Markers, package: bool = False) -> Scan:
    """The first pass over one file: its imports, by text; nothing is decoded or parsed."""
    imports: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    plain: list[tuple[str, tuple[tuple[str, str], ...]]] = []  # listed after the `from` ones
    for match in _IMPORTS().finditer(b"\n" + data):
        if match[3] is not None:
            for item in match[3].split(b","):
                words = item.split()
                if words:
                    plain.append((words[0].decode("utf-8", "replace"), ()))
            continue
        base = _absolute(match[1].decode("utf-8", "replace"), module, package)
        if base is None:
            continue
        names = _COMMENT().sub(b"", match[2]).strip(b"()\\ \t\r\n")
        found = []
        for item in re.split(rb"\s*,\s*", names):
            words = item.split()
            if words and words[0] != b"*":
                local = words[2] if len(words) == 3 and words[1] == b"as" else words[0]
                found.append(
                    (words[0].decode("utf-8", "replace"), local.decode("utf-8", "replace"))
                )
        imports.append((base, tuple(found)))
    return Scan(data, markers, tuple(imports + plain))


# A top-level statement starts at column 0 (a closing bracket there continues one).
_TOP = lazy(rb"\n(?=[^\s#)\]}])")
# A name: non-ASCII letters are bytes of 0x80 and above in UTF-8, which `\w` on bytes misses.
_NAME = rb"[\w\x80-\xff]+"
_WORD = lazy(_NAME)
_DEFINITION = lazy(rb"(?:async[ \t]+)?(?:def|class)[ \t]+(" + _NAME + rb")")
_HEADS = (b"def", b"class", b"async")


class _Text:
    """One module's text as top-level statements, found by searching for names rather
    than by splitting: a module is asked about a few names, not about every statement."""

    def __init__(self, data: bytes, markers: Markers) -> None:
        self.data = data
        self.starts = [0, *(m.end() for m in _TOP().finditer(data))]
        self.holds: set[int] = set()  # statements that may hold a result
        self.asking: set[int] = set()  # and those that, or whose callers, may
        for position in markers.positions(data):
            self.holds.add(self._at(position))
        self.defines: dict[str, int] = {}
        definition = _DEFINITION().match
        for index, start in enumerate(self.starts):  # a definition starts a statement
            if data.startswith(_HEADS, start):
                match = definition(data, start)
                if match:
                    self.defines.setdefault(match[1].decode("utf-8", "replace"), index)
        self.names = {index: name for name, index in self.defines.items()}
        self._hits: dict[bytes, set[int]] = {}
        self._words: dict[int, set[str]] = {}

    def _at(self, position: int) -> int:
        return bisect.bisect_right(self.starts, position) - 1

    def hits(self, key: bytes) -> set[int]:
        """The statements whose text contains `key`."""
        found = self._hits.get(key)
        if found is None:
            found = self._hits[key] = set()
            data, position = self.data, self.data.find(key)
            while position >= 0:
                found.add(self._at(position))
                position = data.find(key, position + 1)
        return found

    def words(self, indices: Iterable[int]) -> set[str]:
        """The names in the text of these statements."""
        found: set[str] = set()
        for index in indices:
            words = self._words.get(index)
            if words is None:
                words = self._words[index] = {
                    w.decode("utf-8", "replace") for w in _WORD().findall(self.chunks([index]))
                }
            found |= words
        return found

    def chunks(self, indices: Iterable[int]) -> bytes:
        """The text of these statements."""
        starts, data = self.starts, self.data
        return b"\n".join(
            data[starts[i] : starts[i + 1] if i + 1 < len(starts) else len(data)]
            for i in sorted(indices)
        )

    def settle(self, keys: list[bytes], asked: Iterable[str], held: set[str]) -> set[int]:
        """Grow what holds (from `keys`, names imported that may hold results) and what
        asks (also the definitions other modules ask for); `held` gets the names defined
        by statements that hold. Returns the asking statements."""
        for key in keys:
            self.holds |= self.hits(key)
        for wanted in asked:
            if wanted in self.defines:
                self.asking.add(self.defines[wanted])
        work = list(self.holds | self.asking)
        self.asking |= self.holds
        while work:
            index = work.pop()
            name = self.names.get(index)
            if index in self.holds and name is not None and name not in held:
                held.add(name)
                for other in self.hits(name.encode()) - self.holds:
                    self.holds.add(other)
                    self.asking.add(other)
                    work.append(other)
            # a helper of this module that an asking statement names asks too
            for word in self.words([index]):
                at = self.defines.get(word, -1)
                if at >= 0 and at not in self.asking:
                    self.asking.add(at)
                    work.append(at)
        return self.asking


def _absolute(base: str, module: str, package: bool) -> str | None:
    level = len(base) - len(base.lstrip("."))
    if not level:
        return base
    from toolwire.lint.analysis.names import relative_parts  # a cache hit never gets here

    parts = relative_parts(module, package)
    if len(parts) < level:
        return None
    rest = base[level:]
    return ".".join([*parts[: len(parts) - level], *([rest] if rest else [])])


class Graph:
    """Who imports whom among the modules of a run, and which of its functions each module
    is asked for: the text-level twin of the per-definition pre-filter, across modules.

    A top-level definition may hold a result when its text names a marker, or a name that
    may (a definition of its module, or an import of one from another module). A module is
    asked for a name when a definition that may hold a result, or one it is asked for
    itself, names that import. Both grow to a fixpoint over the modules.
    """

    def __init__(self, scans: dict[str, Scan]) -> None:
        self.deps: dict[str, list[str]] = {}
        self.demanded: dict[str, set[str]] = {}
        # per module, what it imports from the modules of the run: `from m import a` gives
        # `m.a`; `import m` gives `m` (then everything of `m`)
        self.imports: dict[str, set[str]] = {}
        importers: dict[str, set[str]] = {}
        imported: dict[str, dict[str, tuple[str, str]]] = {}  # local name → (module, name)
        for module, found in scans.items():
            deps: dict[str, None] = {}
            for base, names in found.imports:
                if base in scans and base != module:
                    deps[base] = None
                    importers.setdefault(base, set()).add(module)
                for name, _ in names:
                    sub = f"{base}.{name}"
                    if sub in scans and sub != module:
                        deps[sub] = None
            self.deps[module] = list(deps)
            self.imports[module] = {
                f"{base}.{name}" if name else base
                for base, names in found.imports
                if base in scans
                for name in ([n for n, _ in names] or [""])
            }
            imported[module] = {
                local: (base, name)
                for base, names in found.imports
                if base in scans
                for name, local in names
            }
        holding: dict[str, set[str]] = {}  # names of definitions that may hold a result
        texts: dict[str, _Text] = {}
        pending = [m for m, found in scans.items() if found.markers.found(found.data)]
        queued = set(pending)
        while pending:
            module = pending.pop()
            queued.discard(module)
            found = scans[module]
            text = texts.get(module)
            if text is None:
                text = texts[module] = _Text(found.data, found.markers)
            names_of = imported[module]
            held = holding.setdefault(module, set())
            before = len(held)
            keys = [
                local.encode()
                for local, (base, name) in names_of.items()
                if name in holding.get(base, ())
            ]
            asked = self.demanded.get(module, set())
            asking = text.words(text.settle(keys, asked, held))
            # A name imported from a module of the run is this module's to export as well
            # (a package's `__init__` re-exporting it): it holds what it names, and asking
            # for it asks its module.
            held.update(
                local for local, (base, name) in names_of.items() if name in holding.get(base, ())
            )
            asking.update(local for local in asked if local in names_of)
            for local, (base, name) in names_of.items():
                if name not in self.demanded.get(base, ()) and local in asking:
                    self.demanded.setdefault(base, set()).add(name)
                    if base not in queued:
                        queued.add(base)
                        pending.append(base)
            if len(held) != before:  # what imports this module may now hold results too
                for other in importers.get(module, ()):
                    if other not in queued:
                        queued.add(other)
                        pending.append(other)

    def order(self, module: str, done: Container[str]) -> list[str]:
        """The modules `module` depends on (through imports) that are not `done`, each
        after its own dependencies: an iterative depth-first postorder, so a long chain
        costs no stack."""
        out: list[str] = []
        seen = {module}
        stack = [(module, iter(self.deps.get(module, ())))]
        while stack:
            current, pending = stack[-1]
            for dep in pending:
                if dep not in seen and dep not in done:
                    seen.add(dep)
                    stack.append((dep, iter(self.deps.get(dep, ()))))
                    break
            else:
                stack.pop()
                if current != module:
                    out.append(current)
        return out


class Markers(NamedTuple):
    """Text that may hold a result: a result or artifact class, a tool base, `artifacts`,
    or a tool method declared to return `str` or a result."""

    words: tuple[bytes, ...]
    methods: tuple[bytes, ...]
    declared: re.Pattern[bytes]

    def found(self, text: bytes) -> bool:
        if any(word in text for word in self.words):
            return True
        return any(m in text for m in self.methods) and bool(self.declared.search(text))

    def positions(self, data: bytes) -> Iterator[int]:
        for word in self.words:
            position = data.find(word)
            while position >= 0:
                yield position
                position = data.find(word, position + 1)
        if any(m in data for m in self.methods):
            for match in self.declared.finditer(data):
                yield match.start()


@functools.cache
def markers(config: Config) -> Markers:
    names = [*config.result_classes, *config.artifact_classes, *config.tool_bases]
    words = {n.rpartition(".")[2].encode() for n in names} | {b"artifacts"}
    results = b"|".join(re.escape(n.rpartition(".")[2].encode()) for n in config.result_classes)
    methods = tuple(m.encode() for m in config.tool_methods)
    declared = re.compile(
        rb"def[ \t]+(?:%s)\b[^:]*->[ \t]*['\"]?(?:str|%s)\b"
        % (b"|".join(map(re.escape, methods)) or b"(?!)", results or b"(?!)")
    )
    return Markers(tuple(sorted(words)), methods, declared)
