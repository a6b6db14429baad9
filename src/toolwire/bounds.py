"""Bounding at the seam: UTF-8 coercion and byte caps for both result channels.

Every executed tool call passes through ``bound()`` before its result leaves the
process (ADR-108): ``content`` is capped at ``limit`` bytes, artifacts get their own
serialised ``budget``. Sizes are UTF-8 bytes, never characters.

The seam never raises on what a tool put into its result. Strings are read as plain
``str`` data (a ``str`` subclass's own methods are never called), and artifact data
that raises anything while it is walked or encoded (a ``Mapping`` whose iteration
fails, a ``__hash__`` or ``__len__`` that raises, a generator raising ``KeyError``...)
counts as data that cannot be encoded: the policy replaces it. Only exceptions that
are not ``Exception`` (``KeyboardInterrupt``, ``SystemExit``) go through.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Literal

from toolwire.result import ArtifactType, ToolArtifact, ToolResult

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_LIMIT",
    "OMITTED_LABEL",
    "Bounds",
    "Policy",
    "bound",
    "bound_artifacts",
    "bound_content",
    "coerce_utf8",
    "truncation_marker",
]

DEFAULT_LIMIT = 50_000
DEFAULT_BUDGET = 50_000
OMITTED_LABEL = "Artifacts omitted"

Policy = Literal["collapse", "drop"]
_POLICIES = ("collapse", "drop")

logger = logging.getLogger("toolwire.bounds")

# A surrogate pair, a run of surrogateescape'd bytes (U+DC80..U+DCFF), or any other lone
# surrogate, in that order of preference.
_SURROGATES = re.compile(r"[\ud800-\udbff][\udc00-\udfff]|[\udc80-\udcff]+|[\ud800-\udfff]")


def _fix_surrogates(match: re.Match[str]) -> str:
    found = match.group()
    first = ord(found[0])
    if 0xD800 <= first <= 0xDBFF and len(found) == 2:
        return chr(0x10000 + ((first - 0xD800) << 10) + (ord(found[1]) - 0xDC00))
    if 0xDC80 <= first <= 0xDCFF:
        # Undo surrogateescape, then decode the original bytes for real.
        return bytes(ord(c) - 0xDC00 for c in found).decode("utf-8", "replace")
    return "\ufffd"


def coerce_utf8(value: str | bytes | bytearray) -> str:
    """Return ``value`` as a str that always encodes to valid UTF-8.

    Bytes decode as UTF-8, each invalid sequence becoming U+FFFD (``b"\\xff"`` ->
    ``"\\ufffd"``). A str is returned unchanged unless it holds surrogates: a proper
    surrogate pair is joined into its character, surrogateescape'd bytes are decoded
    as the UTF-8 they stood for, and any other lone surrogate becomes U+FFFD. The str
    ``"\\xff"`` is the valid character "ÿ" and stays as it is.

    A subclass of ``str``, ``bytes`` or ``bytearray`` is read as its plain data, without
    calling any method it overrides (``encode``, ``decode``, ``__bytes__``...), and the
    result is always a plain ``str``.
    """
    # The unbound built-in methods read the data; a subclass's overrides never run.
    if isinstance(value, bytes):
        return bytes.decode(value, "utf-8", "replace")
    if isinstance(value, bytearray):
        return bytearray.decode(value, "utf-8", "replace")
    if not isinstance(value, str):
        raise TypeError(f"expected str or bytes, got {type(value).__name__}")
    plain = str.__str__(value)
    try:
        str.encode(plain, "utf-8")
    except UnicodeEncodeError:
        return _SURROGATES.sub(_fix_surrogates, plain)
    return plain


def _check_size(value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must not be negative, got {value}")


def truncation_marker(limit: int) -> str:
    """The suffix that replaces the tail of content over ``limit`` bytes."""
    return f"\n…[tool result truncated at {limit} bytes]"


def bound_content(text: str | bytes | bytearray, limit: int = DEFAULT_LIMIT) -> str:
    """Coerce ``text`` to UTF-8 and cap it at ``limit`` bytes.

    Text of at most ``limit`` bytes is returned unchanged. Longer text keeps its head,
    cut on a character boundary, followed by ``truncation_marker(limit)``. The result
    is exactly ``limit`` bytes when the cut falls between characters (always, for
    ASCII); when a multibyte character straddles the cut it is dropped whole, so the
    result is up to 3 bytes short of ``limit``. It never exceeds ``limit``.

    Raises ValueError when ``limit`` is smaller than the marker itself.
    """
    _check_size(limit, "limit")
    marker = truncation_marker(limit).encode("utf-8")
    if limit < len(marker):
        raise ValueError(f"limit {limit} is smaller than the {len(marker)}-byte truncation marker")
    coerced = coerce_utf8(text)
    encoded = coerced.encode("utf-8")
    if len(encoded) <= limit:
        return coerced
    # "ignore" only ever drops the partial character at the cut: the rest is valid.
    head = encoded[: limit - len(marker)].decode("utf-8", "ignore")
    return head + marker.decode("utf-8")


def _coerce_tree(value: object, ancestors: frozenset[int] = frozenset()) -> object:
    if isinstance(value, str):
        return coerce_utf8(value)
    if isinstance(value, Mapping):
        if id(value) in ancestors:
            raise ValueError("circular reference")
        inner = ancestors | {id(value)}
        return {
            (coerce_utf8(k) if isinstance(k, str) else k): _coerce_tree(v, inner)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        if id(value) in ancestors:
            raise ValueError("circular reference")
        inner = ancestors | {id(value)}
        return [_coerce_tree(item, inner) for item in value]
    # Anything else (numbers, None, bytes, objects) is left for json.dumps to judge.
    return value


def _coerce_artifact(artifact: ToolArtifact) -> ToolArtifact:
    return ToolArtifact(
        coerce_utf8(artifact.type), coerce_utf8(artifact.label), _coerce_tree(artifact.data)
    )


def _dumps(value: object) -> str:
    return json.dumps(value, allow_nan=False, ensure_ascii=False)


def _encoded_size(artifact: ToolArtifact) -> tuple[ToolArtifact, int] | str:
    """The coerced artifact and its serialised size, or why it cannot be encoded."""
    try:
        coerced = _coerce_artifact(artifact)
        return coerced, len(_dumps(coerced.to_dict()).encode("utf-8"))
    except Exception as error:  # any failure of the data: unencodable data
        return _unencodable(error)


def _unencodable(error: Exception) -> str:
    # The exception's type only: its message may quote the (secret) data.
    return f"could not be encoded ({type(error).__name__})"


def _omitted(reason: str) -> tuple[ToolArtifact, ...]:
    return (ToolArtifact(ArtifactType.TEXT, OMITTED_LABEL, {"text": reason}),)


def _check_policy(policy: str) -> None:
    if policy not in _POLICIES:
        raise ValueError(f"unknown artifact policy {policy!r}; expected 'collapse' or 'drop'")


def bound_artifacts(
    artifacts: Iterable[ToolArtifact],
    budget: int = DEFAULT_BUDGET,
    policy: Policy = "collapse",
) -> tuple[ToolArtifact, ...]:
    """Coerce every string in ``artifacts`` to UTF-8 and fit them into ``budget`` bytes.

    The size is that of ``json.dumps([a.to_dict() for a in artifacts],
    ensure_ascii=False, allow_nan=False)`` in UTF-8. Data that json cannot encode
    (NaN, infinity, bytes, arbitrary objects, cycles), and data that raises any
    ``Exception`` while it is walked or encoded, counts as unencodable; it never makes
    this function raise.

    ``"collapse"`` (ADR-108): if any artifact is unencodable or the list is over
    budget, the whole list becomes one TEXT artifact labelled ``OMITTED_LABEL`` saying
    why. That marker is not counted against the budget.

    ``"drop"`` (FlowDrop RT-TOOL-6): artifacts are taken in order, and each one that is
    unencodable or does not fit the rest of the budget is dropped on its own, with a
    warning on the ``toolwire.bounds`` logger. The kept ones keep their order, and the
    serialised kept list (brackets and separators included) fits the budget.

    An empty input always gives an empty tuple.
    """
    _check_size(budget, "budget")
    _check_policy(policy)
    items = tuple(artifacts)
    for index, artifact in enumerate(items):
        if not isinstance(artifact, ToolArtifact):
            raise TypeError(
                f"artifact {index} must be a ToolArtifact, got {type(artifact).__name__}"
            )
    if not items:
        return ()
    if policy == "collapse":
        return _collapse(items, budget)
    return _drop(items, budget)


def _collapse(items: tuple[ToolArtifact, ...], budget: int) -> tuple[ToolArtifact, ...]:
    try:
        coerced = tuple(_coerce_artifact(a) for a in items)
        size = len(_dumps([a.to_dict() for a in coerced]).encode("utf-8"))
    except Exception as error:  # any failure of the data: unencodable data
        logger.warning("collapsed %d artifact(s): %s", len(items), _unencodable(error))
        return _omitted("could not be encoded")
    if size > budget:
        logger.warning(
            "collapsed %d artifact(s): %d bytes exceed %d bytes", len(items), size, budget
        )
        return _omitted(f"exceeded {budget} bytes")
    return coerced


def _drop(items: tuple[ToolArtifact, ...], budget: int) -> tuple[ToolArtifact, ...]:
    kept: list[ToolArtifact] = []
    used = 2  # "[" and "]"
    for artifact in items:
        measured = _encoded_size(artifact)
        if isinstance(measured, str):
            _warn_dropped(artifact, measured)
            continue
        coerced, size = measured
        cost = size + (2 if kept else 0)  # json's ", " separator
        if used + cost > budget:
            _warn_dropped(coerced, f"{size} bytes do not fit the {budget - used} bytes left")
            continue
        kept.append(coerced)
        used += cost
    return tuple(kept)


def _warn_dropped(artifact: ToolArtifact, reason: str) -> None:
    # %r keeps attacker-influenceable labels on one log line.
    logger.warning(
        "dropped artifact type=%r label=%r: %s",
        coerce_utf8(artifact.type),
        coerce_utf8(artifact.label),
        reason,
    )


def bound(
    result: ToolResult,
    *,
    limit: int = DEFAULT_LIMIT,
    budget: int = DEFAULT_BUDGET,
    policy: Policy = "collapse",
) -> ToolResult:
    """Apply ``bound_content`` and ``bound_artifacts`` to ``result`` (the seam).

    Returns a new result; an error result stays an error and carries no artifacts.
    Whatever the content and artifact data hold, it does not raise (see
    ``bound_artifacts``); only its own arguments (``limit``, ``budget``, ``policy``, a
    result that is not a ``ToolResult``) are checked with ``TypeError``/``ValueError``.
    """
    if not isinstance(result, ToolResult):
        raise TypeError(f"expected a ToolResult, got {type(result).__name__}")
    _check_size(budget, "budget")
    _check_policy(policy)
    content = bound_content(result.content, limit)
    if result.is_error:
        return ToolResult.error(content)
    return ToolResult.text(content, *bound_artifacts(result.artifacts, budget, policy))


@dataclasses.dataclass(frozen=True, slots=True)
class Bounds:
    """How a seam bounds a result: one value, shared by every framework adapter.

    ``content`` caps the text the model reads (``bound_content``), ``artifacts`` is the
    serialised budget of the run-only channel (``bound_artifacts`` with ``policy``).
    ``None`` leaves that channel uncapped; ``Bounds.off()`` caps neither. Content is
    coerced to valid UTF-8 whatever the bounds: it goes onto a wire. The defaults are
    ADR-108's: 50 000 bytes each, ``"collapse"``.
    """

    content: int | None = DEFAULT_LIMIT
    artifacts: int | None = DEFAULT_BUDGET
    policy: Policy = "collapse"

    def __post_init__(self) -> None:
        if self.content is not None:
            _check_size(self.content, "content")
            marker = len(truncation_marker(self.content).encode("utf-8"))
            if self.content < marker:
                raise ValueError(
                    f"content bound {self.content} is smaller than the "
                    f"{marker}-byte truncation marker"
                )
        if self.artifacts is not None:
            _check_size(self.artifacts, "artifacts")
        _check_policy(self.policy)

    @classmethod
    def off(cls) -> Bounds:
        """No cap on either channel (content is still coerced to UTF-8)."""
        return cls(content=None, artifacts=None)

    def apply(self, result: ToolResult) -> ToolResult:
        """``result`` bounded: the same object when nothing had to change.

        Like ``bound``, it never raises on what the tool put into ``result``; an error
        result stays an error with no artifacts.
        """
        if not isinstance(result, ToolResult):
            raise TypeError(f"expected a ToolResult, got {type(result).__name__}")
        if self.content is None:
            content = coerce_utf8(result.content)
        else:
            content = bound_content(result.content, self.content)
        if result.is_error:
            return result if content is result.content else ToolResult.error(content)
        artifacts = result.artifacts
        if self.artifacts is not None:
            artifacts = bound_artifacts(artifacts, self.artifacts, self.policy)
        # `is`: a str subclass in `content` comes back as a plain copy, so it changed.
        if content is result.content and _same(artifacts, result.artifacts):
            return result
        return ToolResult.text(content, *artifacts)


def _same(bounded: tuple[ToolArtifact, ...], original: tuple[ToolArtifact, ...]) -> bool:
    # Keeping the original object keeps its identity (and the guard's record of it).
    if bounded is original:
        return True
    try:
        return bounded == original
    except Exception:  # data whose comparison fails: take the bounded copy
        return False
