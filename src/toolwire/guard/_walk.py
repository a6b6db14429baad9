"""The text a model is given, read from the message objects of any framework.

Every str leaf of the messages counts (dicts, lists, dataclasses, pydantic models and
plain objects alike), except the frameworks' documented run-only channels, which no
provider conversion sends: a LangChain `ToolMessage.artifact`, a pydantic-ai
`ToolReturnPart.metadata`, a LlamaIndex `ToolOutput.raw_output`, and toolwire's own
artifact and result objects and carriers.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from toolwire.result import ToolArtifact, ToolResult

_MAX_NODES = 50_000
_MAX_DEPTH = 24
# (class name, attribute): run-only by the framework's contract.
_RUN_ONLY = {
    ("ToolMessage", "artifact"),
    ("ToolMessageChunk", "artifact"),
    ("ToolReturnPart", "metadata"),
    ("ToolReturn", "metadata"),
    ("ToolOutput", "raw_output"),
}
_SKIP_TYPES = (ToolArtifact, ToolResult, int, float, bool, type(None), bytes)


def _fields(value: Any) -> list[tuple[str, Any]]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [(f.name, getattr(value, f.name, None)) for f in dataclasses.fields(value)]
    model_fields = getattr(type(value), "model_fields", None)
    if isinstance(model_fields, dict):
        return [(name, getattr(value, name, None)) for name in model_fields]
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return [(k, v) for k, v in attrs.items() if not k.startswith("_")]
    return []


def texts(value: Any) -> list[str]:
    """The str leaves of ``value`` (bounded), run-only channels left out."""
    out: list[str] = []
    seen: set[int] = set()
    budget = [_MAX_NODES]

    def visit(item: Any, depth: int) -> None:
        if budget[0] <= 0 or depth > _MAX_DEPTH:
            return
        budget[0] -= 1
        if isinstance(item, str):
            out.append(item)
            return
        if isinstance(item, _SKIP_TYPES):
            return
        if id(item) in seen:
            return
        seen.add(id(item))
        if isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str):
                    out.append(key)
                visit(child, depth + 1)
            return
        if isinstance(item, (list, tuple, set, frozenset)):
            if item and all(isinstance(a, ToolArtifact) for a in item):
                return  # an artifact carrier
            for child in item:
                visit(child, depth + 1)
            return
        if isinstance(item, type) or callable(item):
            return  # classes and functions are code, not what the model reads
        name = type(item).__name__
        for attr, child in _fields(item):
            if (name, attr) not in _RUN_ONLY:
                visit(child, depth + 1)

    visit(value, 0)
    return out
