"""The runtime guard: artifact bytes caught on their way to a model, while the program runs.

``install()`` makes every ``ToolResult`` built with artifacts register fingerprints of
their payload (in a bounded memory of recent artifacts), and inspects what the program
sends to a model: each request of the httpx and requests clients (openai, anthropic,
google-genai, litellm and every framework on top of them) and the input of the
frameworks' model entry points (LangChain chat models, pydantic-ai models, the Agents
SDK's ``Model``, smolagents, CrewAI, Google ADK and LlamaIndex LLMs, their test models
included). A fingerprint found there is a leak: logged (``mode="log"``) or raised before
the request leaves (``mode="raise"``). The guard reads; it never changes what is sent.

Clients and frameworks are patched once the program has imported them (checked at
install and whenever an artifact is registered); the guard imports none of them.
See docs/guard.md.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Literal

from toolwire import result as _result
from toolwire.guard._patches import Patcher
from toolwire.guard._registry import MIN_LENGTH, Leak, Registry
from toolwire.guard._walk import texts

__all__ = ["ArtifactLeakError", "Guard", "Leak", "active", "install", "uninstall"]

Mode = Literal["log", "raise", "record"]
_MODES = ("log", "raise", "record")
logger = logging.getLogger("toolwire.guard")
_lock = threading.Lock()
_active: Guard | None = None


class ArtifactLeakError(Exception):
    """Artifact data was about to reach a model (``mode="raise"``)."""

    def __init__(self, leaks: list[Leak]) -> None:
        self.leaks = leaks
        super().__init__("toolwire guard: " + "; ".join(leak.message() for leak in leaks))


class Guard:
    """One installed guard. ``leaks`` keeps what it found (the most recent ``capacity``)."""

    def __init__(
        self,
        mode: Mode,
        capacity: int,
        min_length: int,
        on_leak: Callable[[Leak], None] | None,
    ) -> None:
        self.mode = mode
        self.capacity = capacity
        self.registry = Registry(capacity, min_length)
        self.leaks: list[Leak] = []
        self._on_leak = on_leak
        self._patcher = Patcher(self._inspect_texts, self.registry.seen)

    @property
    def patched(self) -> tuple[str, ...]:
        """The clients and frameworks the guard inspects so far."""
        return tuple(self._patcher.patched)

    def inspect(self, value: Any, where: str) -> list[Leak]:
        """Inspects ``value`` (messages, a request body) as if sent to a model at ``where``.

        For a wire sink of your own that is neither HTTP nor a framework model.
        """
        return self._inspect_texts(texts(value), where)

    def _inspect_texts(self, found: list[str], where: str) -> list[Leak]:
        leaks = self.registry.search(found, where)
        if not leaks:
            return leaks
        with _lock:
            self.leaks.extend(leaks)
            del self.leaks[: -self.capacity]
        for leak in leaks:
            if self._on_leak is not None:
                self._on_leak(leak)
            if self.mode == "log":
                logger.warning("toolwire guard: %s", leak.message())
        if self.mode == "raise":
            raise ArtifactLeakError(leaks)
        return leaks

    def _on_result(self, result: _result.ToolResult) -> None:
        try:
            self._patcher.patch_loaded()
            self.registry.add_result(result)
        except Exception:  # the guard must never break the tool that built the result
            logger.exception("toolwire guard: could not register a result's artifacts")

    def reset(self) -> None:
        """Forgets every artifact, every leak and the recent wire text (a new test, a new run)."""
        self.registry.clear()
        with _lock:
            self.leaks.clear()
        self._patcher.patch_loaded()

    def uninstall(self) -> None:
        global _active
        with _lock:
            if _active is self:
                _active = None
                _result._artifact_hook = None
        self._patcher.unpatch()


def install(
    mode: Mode = "log",
    *,
    capacity: int = 256,
    min_length: int = MIN_LENGTH,
    on_leak: Callable[[Leak], None] | None = None,
) -> Guard:
    """Installs the guard (replacing one already installed) and returns it.

    ``capacity`` bounds the artifacts remembered (the oldest are forgotten first) and the
    leaks kept; ``min_length`` is the shortest string value that counts as a fingerprint.
    """
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {', '.join(map(repr, _MODES))}, got {mode!r}")
    if capacity < 1:
        raise ValueError(f"capacity must be at least 1, got {capacity!r}")
    if min_length < 4:
        raise ValueError(f"min_length must be at least 4, got {min_length!r}")
    uninstall()
    guard = Guard(mode, capacity, min_length, on_leak)
    global _active
    with _lock:
        _active = guard
        _result._artifact_hook = guard._on_result
    guard._patcher.patch_loaded()
    return guard


def uninstall() -> None:
    """Removes the installed guard, if any, and every patch it made."""
    guard = _active
    if guard is not None:
        guard.uninstall()


def active() -> Guard | None:
    """The installed guard, or None."""
    return _active
