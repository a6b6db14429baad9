"""Fingerprints of recent artifacts, and the search for them in what a model is sent.

A fingerprint is a form of an artifact's payload that would only be on the wire if the
payload were: its distinctive string values and the serialised forms (JSON, Python
``str()``) of its containers. Numbers, short strings and strings made of few distinct
characters are never fingerprints, and neither is a value that the result's own
``content`` holds (that text is meant for the wire) or that was already on the wire, in a
request or a model's reply, before the artifact existed (the model's own tool arguments).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import sys
import threading
from collections.abc import Iterator

from toolwire.result import ToolArtifact, ToolResult

MIN_LENGTH = 12
_MIN_DISTINCT = 5
_MAX_FINGERPRINTS = 64  # per artifact, so that one huge table stays cheap to search
_MAX_DEPTH = 6
_SEEN_CHARS = 2_000_000  # the recent wire text kept to recognise values already sent
_TOOLWIRE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass(frozen=True, slots=True)
class Fingerprint:
    kind: str  # "string value", "JSON", "Python str()"
    text: str
    needles: tuple[str, ...]  # the text as sent: raw, JSON-escaped, escaped twice


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    label: str
    type: str
    origin: str  # file:line of the call that built the ToolResult
    fingerprints: tuple[Fingerprint, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Leak:
    """One artifact fingerprint found in what a model was sent."""

    label: str
    type: str
    origin: str
    where: str
    kind: str
    matched: str

    def message(self) -> str:
        shown = self.matched if len(self.matched) <= 80 else self.matched[:80] + "…"
        return (
            f"artifact {self.label!r} (type {self.type!r}) created at {self.origin} "
            f"reached the model in {self.where}: its {self.kind} {shown!r}"
        )


def _escaped(text: str) -> tuple[str, ...]:
    once_ascii = json.dumps(text)[1:-1]
    once = json.dumps(text, ensure_ascii=False)[1:-1]
    forms = dict.fromkeys(
        (text, once, once_ascii, json.dumps(once)[1:-1], json.dumps(once_ascii)[1:-1])
    )
    return tuple(forms)


def distinctive(text: str, min_length: int = MIN_LENGTH) -> bool:
    """Long enough, not a number, and made of enough different characters."""
    stripped = text.strip()
    if len(stripped) < min_length or len(set(stripped)) < _MIN_DISTINCT:
        return False
    try:
        float(stripped)
    except ValueError:
        return True
    return False


def _has_value_text(value: object, depth: int = 0) -> bool:
    if isinstance(value, str):
        return len(value) >= 4 and any(c.isalpha() for c in value)
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return any(_has_value_text(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_value_text(v, depth + 1) for v in value)
    return False


def _container_forms(value: object) -> Iterator[tuple[str, str]]:
    for options in (
        {},
        {"ensure_ascii": False},
        {"separators": (",", ":")},
        {"separators": (",", ":"), "ensure_ascii": False},
        {"sort_keys": True},
        {"indent": 2},
    ):
        try:
            yield "JSON", json.dumps(value, **options)
        except (TypeError, ValueError):
            break
    try:
        yield "Python str()", str(value)
    except Exception:  # a payload's own __str__ may fail; the other forms still count
        return


def fingerprints(data: object, content: str, min_length: int = MIN_LENGTH) -> list[Fingerprint]:
    found: dict[str, str] = {}

    def visit(value: object, depth: int) -> None:
        if len(found) >= _MAX_FINGERPRINTS or depth > _MAX_DEPTH:
            return
        if isinstance(value, str):
            if distinctive(value, min_length):
                found.setdefault(value.strip(), "string value")
            return
        if isinstance(value, (dict, list, tuple)):
            if _has_value_text(value):
                for kind, text in _container_forms(value):
                    if len(text) >= 2 * min_length:
                        found.setdefault(text, kind)
            children = value.values() if isinstance(value, dict) else value
            for child in children:
                visit(child, depth + 1)

    visit(data, 0)
    return [
        Fingerprint(kind, text, _escaped(text))
        for text, kind in found.items()
        if text not in content
    ]


def _origin() -> str:
    frame = sys._getframe(2)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not path.startswith(_TOOLWIRE_DIR + os.sep):
            return f"{path}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


class Registry:
    """A bounded memory of recent artifacts and of recent wire text."""

    def __init__(self, capacity: int, min_length: int = MIN_LENGTH) -> None:
        self.min_length = min_length
        self._entries: collections.deque[Entry] = collections.deque(maxlen=capacity)
        self._seen: collections.deque[str] = collections.deque()
        self._seen_chars = 0
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._seen.clear()
            self._seen_chars = 0

    def add_result(self, result: ToolResult) -> None:
        origin = _origin()
        for artifact in result.artifacts:
            self.add_artifact(artifact, result.content, origin)

    def add_artifact(self, artifact: ToolArtifact, content: str, origin: str) -> None:
        prints = fingerprints(artifact.data, content, self.min_length)
        with self._lock:
            seen = list(self._seen)
        if seen:
            prints = [p for p in prints if not any(n in text for text in seen for n in p.needles)]
        if prints:
            entry = Entry(artifact.label, str.__str__(artifact.type), origin, tuple(prints))
            with self._lock:
                self._entries.append(entry)

    def _remember(self, texts: list[str]) -> None:
        with self._lock:
            for text in texts:
                self._seen.append(text)
                self._seen_chars += len(text)
            while self._seen_chars > _SEEN_CHARS and len(self._seen) > 1:
                self._seen_chars -= len(self._seen.popleft())

    def seen(self, texts: list[str]) -> None:
        """Wire text that was not sent by us (a model's reply): remembered, not searched."""
        self._remember(texts)

    def search(self, texts: list[str], where: str) -> list[Leak]:
        """The artifacts whose fingerprints are in ``texts``; ``texts`` is then remembered."""
        with self._lock:
            entries = list(self._entries)
        leaks: list[Leak] = []
        for entry in entries:
            for fingerprint in entry.fingerprints:
                if any(n in text for text in texts for n in fingerprint.needles):
                    leaks.append(
                        Leak(
                            entry.label,
                            entry.type,
                            entry.origin,
                            where,
                            fingerprint.kind,
                            fingerprint.text,
                        )
                    )
                    break
        self._remember(texts)
        return leaks
