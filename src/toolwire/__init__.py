"""toolwire: keep LLM tool artifacts off the provider wire.

`from toolwire import ToolResult` loads only the runtime (standard library only). The
runtime modules load on first use, so that the linter, the codemods and the plugins,
which live in their own modules, do not pay for them at every start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolwire import bounds
    from toolwire.result import ArtifactType, ToolArtifact, ToolResult

__all__ = ["ArtifactType", "ToolArtifact", "ToolResult", "bounds"]
__version__ = "0.1.0"

_RUNTIME = {"ArtifactType", "ToolArtifact", "ToolResult"}


def __getattr__(name: str) -> Any:
    if name == "bounds":
        return importlib.import_module("toolwire.bounds")
    if name in _RUNTIME:
        return getattr(importlib.import_module("toolwire.result"), name)
    raise AttributeError(f"module 'toolwire' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
