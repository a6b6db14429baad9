"""Which files a run reads, and reading them: shared by `toolwire check` and `toolwire migrate`.

Paths given on the command line are taken as given, unless their table sets
`force-exclude` and excludes them. Directories are walked for `*.py` and `*.pyi` files,
skipping VCS, cache and build directories that are not packages of the project,
virtualenvs, `.gitignore`d paths (docs/integrations.md lists them) and what the table of
the directory holding an entry excludes (`exclude`, `extend-exclude`). A symlink met in
a walk whose target lies outside the directory given is not followed (as ruff and black
do): `discover_all` names it. Problems with the input (a directory that cannot be
listed, a FIFO, a dangling link) become TW000 findings, never exceptions, and the rest
of the run goes on.
"""

from __future__ import annotations

import errno
import fnmatch
import functools
import os
import re
import stat
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from toolwire.lint.findings import Finding, unreadable

if TYPE_CHECKING:
    import pathspec

    from toolwire.lint.config import Config

ConfigFor = Callable[[Path], "Config"]

STDIN = "-"
SUFFIXES = (".py", ".pyi")
# Skipped by name at any depth unless the directory is a package (`_package`).
EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "node_modules",
        "build",
        "dist",
        ".eggs",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
    }
)
EXCLUDED_DIR_GLOBS = ("*.egg-info",)


class _Ignore(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """One `.gitignore` (or `.git/info/exclude`), matched relative to `base`."""

    base: Path
    spec: pathspec.GitIgnoreSpec

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!` pattern; None: no pattern matched."""
        try:
            relative = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        result = self.spec.check_file(relative + "/" if is_dir else relative)
        return result.include


def _load_ignore(directory: Path, name: str = ".gitignore") -> _Ignore | None:
    candidate = directory / name
    try:
        text = candidate.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    patterns = _patterns(text)
    return _Ignore(directory, _spec(patterns)) if patterns else None


def _spec(patterns: list[Any]) -> pathspec.GitIgnoreSpec:
    import pathspec  # only a tree with an ignore file pays for it

    try:
        return pathspec.GitIgnoreSpec(patterns)
    except Exception:  # re2's set compile has a size limit: never abort a run over it
        return pathspec.GitIgnoreSpec(patterns, backend="simple")


def _patterns(text: str) -> list[Any]:
    """The patterns of an ignore file, each line compiled on its own.

    A line git accepts but can never match with (`!` alone, a trailing backslash, a
    reversed range `[z-a]`) makes pathspec raise; git ignores it, and so does this.
    Lines are split at `\n` only, a trailing `\r` dropped, as git reads them.
    """
    factory = _pattern_factory()
    patterns = []
    with warnings.catch_warnings():
        # `[[` compiles, with a FutureWarning from `re` that is no concern of the user's.
        warnings.simplefilter("ignore")
        for line in text.split("\n"):
            line = line.removesuffix("\r")
            if not line:
                continue
            try:
                pattern = factory(line)
            except (ValueError, re.error):  # pathspec's pattern error; `[z-a]` from `re`
                continue
            if pattern.include is not None:
                patterns.append(pattern)
    return patterns


@functools.cache
def _pattern_factory() -> Callable[[str], Any]:
    # The class GitIgnoreSpec compiles lines with: it differs across pathspec versions
    # (hence Any: GitIgnoreSpec accepts only its own).
    import pathspec

    return type(pathspec.GitIgnoreSpec.from_lines(["x"]).patterns[0])


def _repo_root(directory: Path) -> Path | None:
    for candidate in (directory, *directory.parents):
        if os.path.exists(candidate / ".git"):
            return candidate
    return None


def _enclosing_ignores(directory: Path) -> list[_Ignore]:
    """The ignore files of `directory`'s repository that sit above `directory`, top first."""
    root = _repo_root(directory)
    if root is None:
        return []
    ignores = []
    exclude = _load_ignore(root / ".git" / "info", "exclude")
    if exclude is not None:
        ignores.append(_Ignore(root, exclude.spec))
    above = [*directory.parents]
    for candidate in reversed(above[: above.index(root) + 1] if root in above else []):
        found = _load_ignore(candidate)
        if found is not None:
            ignores.append(found)
    return ignores


def _without_patterns_matching(ignore: _Ignore, directory: Path) -> _Ignore:
    try:
        relative = directory.relative_to(ignore.base).as_posix() + "/"
    except ValueError:
        return ignore
    kept = [p for p in ignore.spec.patterns if not p.match_file(relative)]
    if len(kept) == len(ignore.spec.patterns):
        return ignore
    return _Ignore(ignore.base, _spec(kept))


def _ignored(path: Path, is_dir: bool, ignores: Sequence[_Ignore]) -> bool:
    # git semantics: the deepest .gitignore with a matching pattern decides.
    for ignore in reversed(ignores):
        verdict = ignore.verdict(path, is_dir)
        if verdict is not None:
            return verdict
    return False


def _excluded_dir(path: Path) -> bool:
    name = path.name
    if name in EXCLUDED_DIRS or any(fnmatch.fnmatch(name, g) for g in EXCLUDED_DIR_GLOBS):
        # `myapp/build/` is the project's code; `build/lib/myapp/` a copy of it.
        return not _package(path)
    # os.path, not Path: an unsearchable directory must not raise here.
    return os.path.isfile(path / "pyvenv.cfg")


def _package(path: Path) -> bool:
    """A regular package, or a namespace portion inside one (its parent is a package)."""
    return any(
        os.path.isfile(directory / init)
        for directory in (path, path.parent)
        for init in ("__init__.py", "__init__.pyi")
    )


def strerror(exc: OSError) -> str:
    """The reason of an OSError, as TW000 messages give it."""
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    return exc.strerror or str(exc)


_Key = tuple[int, int]  # (st_dev, st_ino): a file's identity without resolving its path


class Discovery:
    """What a run reads: `files`, TW000 `errors`, and the symlinks not followed (`outside`)."""

    # A plain class: a dataclass compiles its methods from text at every start-up.
    __slots__ = ("errors", "files", "outside")

    def __init__(self) -> None:
        self.files: list[Path] = []
        self.errors: list[Finding] = []
        self.outside: list[Path] = []


class _Walker:
    def __init__(self, config_for: ConfigFor) -> None:
        self._config_for = config_for
        self.found = Discovery()
        self.files = self.found.files
        self.errors = self.found.errors
        self._seen_files: set[_Key] = set()
        self._seen_dirs: set[_Key] = set()
        self._root = ""

    def add_file(self, path: Path, key: _Key | None = None) -> None:
        if key is None:
            try:
                status = os.stat(path)
            except (OSError, RuntimeError) as exc:
                self.error(path, exc)
                return
            key = (status.st_dev, status.st_ino)
        if key not in self._seen_files:
            self._seen_files.add(key)
            self.files.append(path)

    def walk(self, top: Path) -> None:
        try:
            status = os.stat(top)
        except (OSError, RuntimeError) as exc:
            self.error(top, exc)
            return
        self._root = os.path.realpath(top)
        # Ignore files are matched by logical (unresolved) absolute location, as git does.
        logical = Path(os.path.abspath(top))
        # A directory given by name is checked even when an enclosing repository ignores it
        # (the stdlib inside a git-managed pyenv): only patterns below it still apply.
        ignores = [_without_patterns_matching(i, logical) for i in _enclosing_ignores(logical)]
        self._walk(top, logical, (status.st_dev, status.st_ino), ignores, ())

    def _walk(
        self,
        directory: Path,
        logical: Path,
        key: _Key,
        ignores: list[_Ignore],
        ancestors: tuple[_Key, ...],
    ) -> None:
        if key in self._seen_dirs:
            return
        self._seen_dirs.add(key)
        ancestors = (*ancestors, key)
        own = _load_ignore(logical)
        if own is not None:
            ignores = [*ignores, own]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            self.error(directory, exc)
            return
        for entry in entries:
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
            except OSError as exc:
                self.error(directory / entry.name, exc)
                continue
            if is_file and not entry.name.endswith(SUFFIXES):
                continue
            path = directory / entry.name
            if is_link and not (is_dir or is_file):
                if path.suffix in SUFFIXES or _link_is_loop(path):
                    self.error(path, _link_error(path))
                continue
            if not (is_dir or is_file):
                if path.suffix in SUFFIXES:
                    self.error(path, _not_regular(path))
                continue
            if ignores and _ignored(logical / entry.name, is_dir, ignores):
                continue
            if self.excluded(path, is_dir=is_dir):
                continue
            if is_link and not self._inside(path):
                self.found.outside.append(path)
                continue
            if is_dir:
                self._enter(entry, path, logical / entry.name, is_link, ignores, ancestors)
            elif is_file:
                # A regular file's inode comes with the directory listing; a link is stat'ed.
                self.add_file(path, None if is_link else (key[0], entry.inode()))

    def _enter(
        self,
        entry: os.DirEntry[str],
        path: Path,
        logical: Path,
        is_link: bool,
        ignores: list[_Ignore],
        ancestors: tuple[_Key, ...],
    ) -> None:
        if _excluded_dir(path):
            return
        try:
            status = entry.stat()
        except OSError as exc:
            self.error(path, exc)
            return
        key = (status.st_dev, status.st_ino)
        if is_link and key in ancestors:
            self.error(path, OSError(errno.ELOOP, "symlink loop"))
            return
        self._walk(path, logical, key, ignores, ancestors)

    def excluded(self, path: Path, *, is_dir: bool, named: bool = False) -> bool:
        """The table of `path` excludes it; a path named on the command line only with
        `force-exclude`. A table that cannot be loaded excludes nothing: the run
        reports it when it checks the files under it."""
        from toolwire.lint.config import ConfigError

        try:
            config = self._config_for(path)
        except ConfigError:
            return False
        if named and not config.force_exclude:
            return False
        return config.excludes(path, is_dir=is_dir)

    def _inside(self, path: Path) -> bool:
        target = os.path.realpath(path)
        return target == self._root or target.startswith(self._root.rstrip(os.sep) + os.sep)

    def error(self, path: Path, exc: BaseException) -> None:
        message = strerror(exc) if isinstance(exc, OSError) else "symlink loop"
        self.errors.append(unreadable(str(path), f"cannot read: {message}"))


def _link_is_loop(path: Path) -> bool:
    try:
        path.resolve(strict=True)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    except RuntimeError:
        return True
    return False


def _not_regular(path: Path) -> OSError:
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return exc
    kind = next((k for test, k in _KINDS if test(mode)), "not a regular file")
    return OSError(errno.EINVAL, f"not a regular file ({kind})")


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _link_error(path: Path) -> OSError:
    if _link_is_loop(path):
        return OSError(errno.ELOOP, "symlink loop")
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return OSError(errno.ENOENT, f"dangling symlink to {target}")


def discover(
    paths: Sequence[str], config_for: ConfigFor | None = None
) -> tuple[list[Path], list[Finding]]:
    """The files to check, in a deterministic order, and TW000 findings for bad inputs.

    `-` stands for stdin and is returned as `Path("-")`. `config_for` gives the table
    whose `exclude` applies to a path (default: the nearest one).
    """
    found = discover_all(paths, config_for)
    return found.files, found.errors


def discover_all(paths: Sequence[str], config_for: ConfigFor | None = None) -> Discovery:
    """`discover`, and the symlinks out of the tree that the walk did not follow."""
    if config_for is None:
        from toolwire.lint.config import resolver

        config_for = resolver()
    walker = _Walker(config_for)
    for given in paths:
        if given == STDIN:
            if Path(STDIN) not in walker.files:
                walker.files.append(Path(STDIN))
            continue
        path = Path(given)
        try:
            status = os.stat(path)
        except OSError as exc:
            walker.error(path, _link_error(path) if os.path.islink(path) else exc)
            continue
        mode = status.st_mode
        if walker.excluded(path, is_dir=stat.S_ISDIR(mode), named=True):
            continue
        if stat.S_ISDIR(mode):
            walker.walk(path)
        elif stat.S_ISREG(mode):
            walker.add_file(path, (status.st_dev, status.st_ino))
        else:
            walker.error(path, _not_regular(path))
    return walker.found


def read(path: Path) -> bytes | Finding:
    """The bytes of `path` (stdin for `-`), or a TW000 finding `cannot read: <reason>`."""
    try:
        if str(path) == STDIN:
            return sys.stdin.buffer.read()
        with open(path, "rb") as file:  # not `Path.read_bytes`: twice a file in migrate
            return file.read()
    except OSError as exc:
        return unreadable(str(path), f"cannot read: {strerror(exc)}")


def read_quietly(path: str | os.PathLike[str]) -> bytes | None:
    """The bytes of the file at `path`, or None: for a pass that reads ahead of a file's
    own check, which reports what cannot be read (not pathlib: once per file of a run)."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError:
        return None


def real_path(path: str) -> str:
    """`os.path.realpath(path)`, with one resolution per directory: runs ask for every file
    of a tree, and resolving costs a system call per path component."""
    if os.path.islink(path):
        return os.path.realpath(path)
    return os.path.join(
        _real_directory(os.path.dirname(os.path.abspath(path))), os.path.basename(path)
    )


@functools.lru_cache(maxsize=4096)
def _real_directory(directory: str) -> str:
    """`os.path.realpath` of an absolute, normalised directory, from its parent's: one
    `lstat` per directory of the run, not one per component of each."""
    parent = os.path.dirname(directory)
    if parent == directory or os.path.islink(directory):
        return os.path.realpath(directory)
    return os.path.join(_real_directory(parent), os.path.basename(directory))
