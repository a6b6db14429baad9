"""Which `[tool.toolwire]` table a file uses: the nearest `pyproject.toml` that has one.

One function for every front-end (`toolwire.lint.config.find_config` is this one). Standard
library only: the mypy plugin asks it for every module of a warm run, before it has read
any config. A file's parse is kept while the file's stat says it is the same file, so a
long-lived process (dmypy) sees a table added or removed.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

_MAX_BYTES = 4 * 1024 * 1024  # as config.MAX_CONFIG_BYTES
_parsed: dict[tuple[str, int, int, int], bool] = {}


def find_config(start: Path) -> Path | None:
    """The nearest `pyproject.toml` with a `[tool.toolwire]` table, walking up from `start`."""
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / "pyproject.toml"
        if has_table(candidate):
            return candidate
    return None


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What says that `path` still holds what it held: (inode, size, mtime), or None."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def has_table(path: Path) -> bool:
    """`path` is a regular file with a `[tool.toolwire]` table, or one too broken to tell
    (its loader reports it). Not a regular file, or not searchable: not ours to read."""
    try:
        info = os.stat(path)
    except OSError:  # absent, or EACCES on a directory we may not search
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    key = (str(path), info.st_ino, info.st_size, info.st_mtime_ns)
    found = _parsed.get(key)
    if found is None:
        found = _parsed[key] = _holds_table(path)
    return found


def _nonblocking(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _holds_table(path: Path) -> bool:
    try:
        with open(path, "rb", opener=_nonblocking) as handle:
            data = handle.read(_MAX_BYTES + 1)
    except OSError:
        return True
    if len(data) > _MAX_BYTES:
        return True
    try:
        tool = tomllib.loads(data.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True
    return not isinstance(tool, dict) or "toolwire" in tool
