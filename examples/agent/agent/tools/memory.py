"""A key-value scratchpad the model can write to and read back during a run."""

from __future__ import annotations

from typing import Optional

from agent.tools.base import Tool


class MemoryTool(Tool):
    name = "memory"
    description = "action=set|get|delete|list on a key-value memory ('key', 'value')."

    def __init__(self) -> None:
        self._entries: dict[str, str] = {}

    # Still on the old "None means no output" contract; the override is deliberate
    # and `toolwire migrate` skips this method (it does not return a plain str).
    def execute(self, arguments: dict[str, str]) -> Optional[str]:  # type: ignore[override]  # noqa: UP045
        action = arguments.get("action", "get")
        key = arguments.get("key", "")
        if action == "list":
            return ", ".join(sorted(self._entries)) or "(memory is empty)"
        if not key:
            return "Error: missing required argument 'key'"
        if action == "set":
            self._entries[key] = arguments.get("value", "")
            return f"Remembered {key!r}."
        if action == "delete":
            return f"Forgot {key!r}." if self._entries.pop(key, None) is not None else None
        if action == "get":
            if key not in self._entries:
                return None
            return self._entries[key]
        return f"Error: unknown action {action!r}"
