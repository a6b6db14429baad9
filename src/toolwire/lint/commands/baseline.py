"""`toolwire check --baseline FILE`: record today's findings once, report only new ones.

A baseline is a multiset of fingerprints: the path (relative to the baseline's own
directory, so the file works from any working directory), the code and the message,
hashed. No line or column, so moved code keeps its entry; two identical findings need an
entry counted twice. Path, code and message are kept beside each print for people.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolwire.lint import writes
from toolwire.lint.findings import Finding, escape

VERSION = 1
UNREADABLE = "TW000"  # input errors are fixed or excluded, never recorded
MAX_BYTES = 64 * 1024 * 1024


class BaselineError(Exception):
    """A baseline that cannot be read or written: one line naming the file."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{escape(str(path))}: {problem}")


@dataclass(frozen=True, slots=True)
class Entry:
    fingerprint: str
    count: int
    path: str
    code: str
    message: str


def relative(path: str, baseline: Path) -> str:
    """`path` as the baseline names it: relative to the baseline's directory, POSIX."""
    full = os.path.abspath(path)
    return Path(os.path.relpath(full, baseline.parent)).as_posix()


def fingerprint(path: str, code: str, message: str) -> str:
    text = "\0".join((escape(path), code, escape(message)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entries(findings: Iterable[Finding], baseline: Path) -> list[Entry]:
    """The findings as counted entries, in path, code, message order."""
    counts: Counter[tuple[str, str, str]] = Counter(
        (relative(f.path, baseline), f.code, f.message) for f in findings if f.code != UNREADABLE
    )
    return [
        Entry(fingerprint(*key), count, escape(key[0]), key[1], escape(key[2]))
        for key, count in sorted(counts.items())
    ]


def load(path: Path) -> list[Entry]:
    """The entries of `path`; BaselineError when it is not a baseline toolwire wrote."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BaselineError(path, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise BaselineError(path, "not a toolwire baseline: too large")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BaselineError(path, f"not a toolwire baseline: not valid JSON ({exc})") from None
    return _entries(path, document)


def _entries(path: Path, document: Any) -> list[Entry]:
    def bad(problem: str) -> BaselineError:
        return BaselineError(path, f"not a toolwire baseline: {problem}")

    if not isinstance(document, dict) or document.get("version") != VERSION:
        raise bad(f"expected an object with version {VERSION}")
    found = document.get("findings")
    if not isinstance(found, list):
        raise bad("'findings' is not a list")
    result = []
    for number, item in enumerate(found, 1):
        if not isinstance(item, dict):
            raise bad(f"finding {number} is not an object")
        print_, count = item.get("fingerprint"), item.get("count")
        path_, code, message = (item.get(k) for k in ("path", "code", "message"))
        if not isinstance(print_, str) or len(print_) != 64:
            raise bad(f"finding {number} has no valid 'fingerprint'")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise bad(f"finding {number}: 'count' must be a whole number of at least 1")
        if not (isinstance(path_, str) and isinstance(code, str) and isinstance(message, str)):
            raise bad(f"finding {number}: 'path', 'code' and 'message' must be strings")
        result.append(Entry(print_, count, path_, code, message))
    return result


def dump(path: Path, found: list[Entry]) -> None:
    """Write the baseline through `toolwire.lint.writes` (atomic; keeps the file's mode)."""
    document = {
        "version": VERSION,
        "tool": "toolwire",
        "findings": [
            {
                "fingerprint": e.fingerprint,
                "count": e.count,
                "path": e.path,
                "code": e.code,
                "message": e.message,
            }
            for e in found
        ],
    }
    data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        if path.exists():
            writes.replace_file(path, data, expected=None)
        else:
            writes.create_file(path, data)
    except (OSError, writes.ChangedOnDisk, writes.Interrupted, writes.PartWritten) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise BaselineError(path, f"cannot write: {reason}") from None


@dataclass(frozen=True, slots=True)
class Scope:
    """What a run looked at: an entry outside it is neither matched nor fixed."""

    files: Mapping[str, Callable[[str], bool]]  # baseline path -> is this code reported there

    def covers(self, entry: Entry) -> bool:
        enabled = self.files.get(entry.path)
        return enabled is not None and enabled(entry.code)


def hide(
    findings: list[Finding], found: list[Entry], baseline: Path, scope: Scope
) -> tuple[list[Finding], int]:
    """The findings no entry covers, and how many entries of the run's scope match nothing."""
    left = Counter({e.fingerprint: 0 for e in found})
    for entry in found:
        left[entry.fingerprint] += entry.count
    kept = []
    for finding in findings:
        key = fingerprint(relative(finding.path, baseline), finding.code, finding.message)
        if finding.code != UNREADABLE and left[key] > 0:
            left[key] -= 1
        else:
            kept.append(finding)
    fixed = 0
    for entry in found:
        if scope.covers(entry):
            spent = min(left[entry.fingerprint], entry.count)
            fixed += spent
            left[entry.fingerprint] -= spent
    return kept, fixed


def update(
    findings: list[Finding], old: list[Entry], baseline: Path, scope: Scope
) -> tuple[list[Entry], int]:
    """The new entries: the run's findings, and the old entries the run did not look at;
    with how many old entries of the run's scope were dropped (fixed)."""
    current = entries(findings, baseline)
    _, fixed = hide(findings, old, baseline, scope)
    kept = [e for e in old if not scope.covers(e)]
    merged: dict[str, Entry] = {}
    for entry in (*kept, *current):
        same = merged.get(entry.fingerprint)
        merged[entry.fingerprint] = (
            entry if same is None else replace(same, count=same.count + entry.count)
        )
    ordered = sorted(merged.values(), key=lambda e: (e.path, e.code, e.message, e.fingerprint))
    return ordered, fixed


def plural(count: int, noun: str) -> str:
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {noun[:-1]}ies" if noun.endswith("y") else f"{count} {noun}s"
