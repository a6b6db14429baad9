"""`toolwire check`'s result cache: the findings (and cross-module exports) of each file,
keyed by everything that can change them, so a re-run analyses only what changed.

A key hashes: the digest of the file's bytes, its display path and module name, the resolved config
(`fingerprint`), toolwire's version and the stat of its own code and rule files, the
Python version, and, for a linked module, the exports of the modules it imports and the
names other modules import from it. A dependency edited changes its exports, and so the
key of every module that imports it.

A warm run need not read an unchanged file: a file record (its stat, the digest of its
bytes, whether they hold a marker) stands for its bytes while the file's change time,
modification time, size and inode are the same, as git's index and ruff's cache do. A
file changed within `RACY_NS` of the time its record was taken may have changed again
in the same tick of the file system's clock: its record is not trusted, and it is read.

One file per project in the cache directory, written whole: a temp file in the directory
then `os.replace`, so two runs at once never leave a torn file (the last one wins). A file
that is truncated, corrupted or of another format fails its checksum and is ignored.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import marshal
import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolwire.lint.config import Config
from toolwire.lint.files import read_quietly
from toolwire.lint.findings import Finding

try:  # `hashlib` also loads OpenSSL, which costs a one-file run several milliseconds
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without the builtin module
    from hashlib import blake2b

if TYPE_CHECKING:
    from toolwire.lint.analysis.modules import Exports, FunctionExport, Link

MAGIC = b"toolwire-cache 2\n"
MAX_ENTRIES = 80_000  # per project (a result and a file record a file); the LRU go first
MAX_PROJECTS = 64  # cache files in one directory; the least recently written go first
ENV = "TOOLWIRE_CACHE_DIR"
# A stat within this of its record's taking is not trusted (FAT's clock ticks in 2 s).
RACY_NS = 2_000_000_000

Payload = tuple[tuple[Any, ...], Any]  # (findings, exports or None), plain data for marshal


def default_dir() -> Path:
    """`$TOOLWIRE_CACHE_DIR`, else `$XDG_CACHE_HOME/toolwire`, else `~/.cache/toolwire`."""
    explicit = os.environ.get(ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "toolwire"


def cache_file(directory: Path, root: Path) -> Path:
    """The file of the project at `root` (its config's directory, else the working one)."""
    name = blake2b(os.fsencode(str(root)), digest_size=10).hexdigest()
    return directory / f"{name}.cache"


# -- keys --------------------------------------------------------------------------------------


def _canon(value: object) -> object:
    """`value` as nested tuples of plain data whose repr does not vary between runs (sets
    are sorted: their order follows string hashing, which is randomised per process)."""
    if value is None or isinstance(value, (str, int, float, bytes)):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(_canon(v) for v in value)
    if isinstance(value, (frozenset, set)):
        return tuple(sorted((_canon(v) for v in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted(((_canon(k), _canon(v)) for k, v in value.items()), key=repr))
    if isinstance(value, Path):
        return ("path", str(value), _stat(value))
    if isinstance(value, re.Pattern):
        return ("re", value.pattern, value.flags)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        items = tuple((f.name, _canon(getattr(value, f.name))) for f in fields if f.name != "_hash")
        return (type(value).__qualname__, items)
    return (type(value).__qualname__, repr(value))


def _stat(path: Path) -> tuple[int, int]:
    """A framework's package directory (a sink's `roots`) changes when it is reinstalled."""
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


@functools.cache
def fingerprint(config: Config) -> bytes:
    """Everything in a resolved config that can change a finding: model, presets, sinks,
    selected and ignored codes, per-file ignores..."""
    return blake2b(repr(_canon(config)).encode(), digest_size=20).digest()


@functools.cache
def toolwire_fingerprint() -> bytes:
    """toolwire's version, the Python running it, and the stat of every file of the package
    and its rules: an editable install whose code or rules change gets a new cache."""
    import toolwire
    from toolwire.lint.rulefiles import rules_path

    digest = blake2b(digest_size=20)
    digest.update(f"{toolwire.__version__}\0{sys.version}\0{sys.implementation.name}".encode())
    roots = [Path(toolwire.__file__).parent, rules_path()]
    for root in roots:
        if root is None:
            continue
        for entry in sorted(_files(str(root))):
            digest.update(os.fsencode(entry[0]) + b"\0%d\0%d\n" % entry[1:])
    return bytes(digest.digest())


def _files(root: str) -> Iterable[tuple[str, int, int]]:
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _files(entry.path)
        elif entry.name.endswith((".py", ".toml", ".md", ".json")):
            try:
                st = entry.stat()
            except OSError:
                continue
            yield (entry.path, st.st_mtime_ns, st.st_size)


def digest(data: bytes) -> bytes:
    """What stands for a file's bytes in a key."""
    return bytes(blake2b(data, digest_size=20).digest())


def key(config: Config, path: str, module: str | None, content: bytes, link: object) -> bytes:
    """The key of one file's results: `content` is the `digest` of its bytes; `link` is
    `link_input(...)`, or None unlinked."""
    found = _prefix(config).copy()
    head = repr((path, module, link)).encode("utf-8", "surrogatepass")
    found.update(b"%d\0" % len(head) + head)  # the length: no text can pass for another
    found.update(content)
    return bytes(found.digest())


_PREFIXES: dict[int, tuple[Config, Any]] = {}


def _prefix(config: Config) -> Any:
    # By identity: asked once or twice per file, and a config's hash is a call each time.
    known = _PREFIXES.get(id(config))
    if known is not None and known[0] is config:
        return known[1]
    digest = blake2b(digest_size=20)
    digest.update(toolwire_fingerprint() + fingerprint(config))
    _PREFIXES[id(config)] = (config, digest)
    return digest


def link_input(link: Link) -> object:
    """What a linked module is given by the run: the exports of the modules it imports,
    and which of its names they import from it."""
    return (
        tuple(sorted(link.tools)),
        tuple(sorted((n, _function(f)) for n, f in link.functions.items())),
        tuple(sorted((n, _class(c)) for n, c in link.classes.items())),
        tuple(sorted(link.demanded)),
    )


# -- file records: a file's digest without reading it ---------------------------------------

Sight = tuple[bytes | None, bytes, bool]  # (the bytes, or None unread; digest; a marker)


def sight(
    store: ResultCache, config: Config, path: str, marked: Callable[[bytes], bool]
) -> Sight | None:
    """The bytes of the file at `path` (None when its record stands for them), their
    `digest` and whether `marked` holds of them; None when it cannot be read. A file read
    is recorded for the next run."""
    where = os.path.abspath(path)
    taken = time.time_ns()  # before the stat: a change after it is newer than this
    try:
        st = os.stat(where)
    except OSError:
        return None
    stamp = (st.st_ctime_ns, st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev)
    name = _record_key(config, where)
    known = _record(store.get(name), stamp)
    if known is not None:
        store.unread += 1
        return None, known[0], known[1]
    data = read_quietly(where)
    if data is None:
        return None
    content, mark = digest(data), marked(data)
    store.records[name] = ((), (stamp, content, mark, taken))
    return data, content, mark


def _record_key(config: Config, where: str) -> bytes:
    found = _prefix(config).copy()
    found.update(b"file\0" + os.fsencode(where))
    return bytes(found.digest())


def _record(payload: Payload | None, stamp: tuple[int, ...]) -> tuple[bytes, bool] | None:
    """The digest and marker of a record that still stands for the file's bytes."""
    if payload is None:
        return None
    try:
        old, content, mark, taken = payload[1]
    except (TypeError, ValueError):
        return None
    # The change time moves on every write (and `touch`, `utime`), so equal stamps mean
    # equal bytes, unless the file changed again within the clock tick it was seen in.
    if old != stamp or stamp[0] + RACY_NS >= taken or not isinstance(content, bytes):
        return None
    return content, bool(mark)


# -- payloads: plain tuples, for marshal (which runs no code on load) -------------------------


def _function(f: FunctionExport) -> tuple[Any, ...]:
    effects = None
    if f.effects is not None:
        effects = tuple((e.param, e.kind, e.returns, e.findings) for e in f.effects)
    return (f.returns, f.params, tuple(sorted(f.keywords)), effects)


def _class(c: Any) -> tuple[Any, ...]:
    return (c.attributes, c.returns)


def encode(findings: list[Finding], exports: Exports | None) -> Payload:
    rows = tuple(
        (f.path, f.line, f.column, f.code, f.message, f.end_line, f.end_column, f.fix, f.problem)
        for f in findings
    )
    if exports is None:
        return rows, None
    return rows, (
        tuple(sorted(exports.tools)),
        tuple((n, _function(f)) for n, f in exports.functions.items()),
        tuple((n, _class(c)) for n, c in exports.classes.items()),
    )


def hit(store: ResultCache, key: bytes) -> tuple[list[Finding], Exports | None] | None:
    """The findings and exports stored under `key`; None when there are none, or when the
    entry is not of the shape this version writes (it is then analysed again)."""
    payload = store.get(key)
    if payload is None:
        return None
    try:
        return [Finding(*row) for row in payload[0]], _exports(payload)
    except (TypeError, ValueError, IndexError, KeyError):
        return None


def _exports(payload: Payload) -> Exports | None:
    from toolwire.lint.analysis.modules import (
        ClassExport,
        Effect,
        Exports,
        FunctionExport,
    )

    if payload[1] is None:
        return None
    tools, functions, classes = payload[1]
    return Exports(
        frozenset(tools),
        {
            name: FunctionExport(
                returns,
                params,
                frozenset(keywords),
                None if effects is None else tuple(Effect(*e) for e in effects),
            )
            for name, (returns, params, keywords, effects) in functions
        },
        {name: ClassExport(attributes, returns) for name, (attributes, returns) in classes},
    )


# -- the store ---------------------------------------------------------------------------------


class ResultCache:
    """The entries of one project's cache file, and those this run added."""

    def __init__(self, file: Path | None, entries: dict[bytes, tuple[int, Payload]]) -> None:
        self.file = file
        self.entries = entries  # key -> (last used, in seconds since the epoch; payload)
        self.fresh: dict[bytes, Payload] = {}  # results this process added since `drain`
        self.added: dict[bytes, Payload] = {}  # results the run added (this process and its
        # workers: `absorb`)
        self.records: dict[bytes, Payload] = {}  # file records taken this run (`sight`)
        self.unread = 0  # files whose record stood for their bytes

    def get(self, key: bytes) -> Payload | None:
        found = self.fresh.get(key)
        if found is not None:
            return found
        entry = self.entries.get(key)
        if not isinstance(entry, tuple) or len(entry) != 2 or not isinstance(entry[1], tuple):
            return None
        self.entries[key] = (_now(), entry[1])
        return entry[1]

    def put(self, key: bytes, payload: Payload) -> None:
        self.fresh[key] = payload

    def drain(self) -> dict[bytes, Payload]:
        """What this process added since the last drain (a worker hands it to the parent
        with each file's result)."""
        fresh = self.fresh
        self.fresh = {}
        self.absorb(fresh)
        return fresh

    def absorb(self, fresh: dict[bytes, Payload]) -> None:
        """Results added by this process or a worker: part of the run's, and reused."""
        now = _now()
        self.entries.update((k, (now, p)) for k, p in fresh.items())
        self.added.update(fresh)


def _now() -> int:
    return int(time.time())


def load(file: Path) -> ResultCache:
    """The cache in `file`; an empty one when it is missing, unreadable or not ours."""
    return ResultCache(file, _read(file))


def _read(file: Path) -> dict[bytes, tuple[int, Payload]]:
    try:
        data = file.read_bytes()
    except OSError:
        return {}
    head = len(MAGIC) + 32
    if len(data) < head or not data.startswith(MAGIC):
        return {}
    body = data[head:]
    if blake2b(body, digest_size=32).digest() != data[len(MAGIC) : head]:
        return {}
    try:
        entries = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return entries


def save(cache: ResultCache) -> str | None:
    """Write what the run added (results and file records, and the last-used times of its
    hits) to the cache file, merged with what another run may have written meanwhile; the
    problem, as a line, when it cannot be. A run that added nothing writes nothing."""
    cache.drain()
    file = cache.file
    added = {**cache.records, **cache.added}
    if file is None or not added:
        return None
    now = _now()
    entries = _read(file)  # a concurrent run's entries are kept
    entries.update(cache.entries)
    entries.update((k, (now, p)) for k, p in added.items())
    if len(entries) > MAX_ENTRIES:
        newest = sorted(entries.items(), key=lambda item: item[1][0], reverse=True)
        entries = dict(newest[:MAX_ENTRIES])
    body = marshal.dumps(entries)
    data = MAGIC + blake2b(body, digest_size=32).digest() + body
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        # Not `tempfile`: importing it (and `random`) costs a one-file run more than this.
        temp = str(file.parent / f".tmp-{os.getpid()}-{time.monotonic_ns()}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(temp, file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except (OSError, ValueError) as exc:
        return f"cache not written to {file.parent}: {getattr(exc, 'strerror', None) or exc}"
    _prune(file.parent)
    return None


def _prune(directory: Path) -> None:
    """Keep the `MAX_PROJECTS` most recently written project files, and drop the temp
    files of runs killed while writing (an hour old: no run writes for that long)."""
    try:
        entries = list(os.scandir(directory))
        stale = time.time() - 3600
        for entry in entries:
            if entry.name.startswith(".tmp-") and entry.stat().st_mtime < stale:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        files = [e for e in entries if e.name.endswith(".cache")]
        if len(files) <= MAX_PROJECTS:
            return
        files.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for entry in files[MAX_PROJECTS:]:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
    except OSError:
        pass
