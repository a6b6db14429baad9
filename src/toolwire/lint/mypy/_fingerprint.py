"""The settings' fingerprints from the last run, while nothing they were computed from changed.

With a warm cache mypy checks nothing: the plugin's only job is `report_config_data`, and
reading the config (the model, the presets, the sinks' signatures) would be most of the
run. So the fingerprint of each config file used is kept in mypy's cache directory beside
a digest of every input of the configs: the mypy config file, each `pyproject.toml` above
it, the config files themselves, the model and preset files, the source files read for the sinks'
signatures, the code that parses them, `sys.path` and the working directory. Any change
in one of them is a miss, and the plugin reads the config as before.

Standard library only, and nothing of toolwire beyond its version: importing this must
stay cheap.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from mypy.options import Options

from toolwire import __version__

_PACKAGE = Path(__file__).resolve().parents[1]
# The code that turns the inputs into settings: a change of it is a change of the result.
_CODE = ("config.py", "_discovery.py", "model.py", "signatures.py", "mypy/_settings.py")
_MAX_BYTES = 4 * 1024 * 1024  # as for a config file: a larger input is never cached


def remembered(options: Options) -> tuple[dict[str, str], list[str]] | None:
    """The fingerprints stored by an earlier run (by config file, "" for the defaults) and
    the inputs they were computed from, while every input still reads the same."""
    entry = _entry(options)
    if entry is None:
        return None
    try:
        data = json.loads(entry.read_bytes())
        deps = [str(p) for p in data["deps"]]
        digest = _digest(options, deps)
        fingerprints = data["fingerprints"]
        if (
            digest is not None
            and data["digest"] == digest
            and isinstance(fingerprints, dict)
            and all(isinstance(v, str) for v in fingerprints.values())
        ):
            return {str(k): v for k, v in fingerprints.items()}, deps
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # a missing or damaged entry is a miss
    return None


def remember(options: Options, fingerprints: dict[str, str], deps: Iterable[str | Path]) -> None:
    """Store `fingerprints` for the next run; `deps` are the inputs beyond the fixed ones."""
    entry = _entry(options)
    if entry is None:
        return
    paths = sorted({str(p) for p in deps})
    digest = _digest(options, paths)
    if digest is None:
        return
    text = json.dumps({"digest": digest, "deps": paths, "fingerprints": fingerprints})
    temporary = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, entry)  # a concurrent run reads the old entry or this one
    except OSError:
        temporary.unlink(missing_ok=True)


def _entry(options: Options) -> Path | None:
    """One entry per mypy config, working directory and `sys.path` (`mypy`, `python -m
    mypy` and dmypy differ), in mypy's cache directory."""
    if not options.incremental or options.cache_dir == os.devnull or not _PACKAGE.is_dir():
        return None
    where = f"{options.config_file}\n{os.getcwd()}\n{sys.path!r}"
    name = hashlib.sha256(where.encode()).hexdigest()[:16]
    return Path(options.cache_dir) / "toolwire" / f"settings-{name}.json"


def _digest(options: Options, deps: Iterable[str]) -> str | None:
    """A digest of every input's content; None if one cannot be read as it should."""
    config_file = options.config_file
    start = Path(config_file).parent if config_file else Path.cwd()
    here = start.resolve()
    files = [config_file] if config_file else []
    files += [str(d / "pyproject.toml") for d in (here, *here.parents)]  # discovery
    files += [str(_PACKAGE / "model.toml")]
    try:
        presets = sorted(os.listdir(_PACKAGE / "presets"))
    except OSError:
        return None
    files += [str(_PACKAGE / "presets" / p) for p in presets if p.endswith(".toml")]
    files += [str(_PACKAGE / c) for c in _CODE]
    files += deps
    digest = hashlib.sha256(f"{__version__}\n{os.getcwd()}\n{sys.path!r}\n".encode())
    for file in files:
        content = _content(file)
        if content is None:
            return None
        digest.update(f"{len(file)}:{file}\n".encode())
        digest.update(content)
    return digest.hexdigest()


def _content(file: str) -> bytes | None:
    """What a reader of `file` finds: its bytes, or that there is no regular file."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return b"absent\n"
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                return f"mode {mode}\n".encode()
            data = handle.read(_MAX_BYTES + 1)
        except OSError:
            return None
    if len(data) > _MAX_BYTES:
        return None
    return f"{len(data)}\n".encode() + data
