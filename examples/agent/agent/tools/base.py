"""The tool contract every builtin implements."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Tool(ABC):
    """A function the model may call. ``execute`` returns the text sent back to it."""

    name: str
    description: str

    @abstractmethod
    def execute(self, arguments: dict[str, str]) -> str: ...


class UnknownTool(Tool):
    """Stands in for a tool name the model invented, so the call still gets an answer."""

    description = "Reports that the requested tool does not exist."

    def __init__(self, name: str) -> None:
        self.name = name

    def execute(self, arguments: dict[str, str]) -> str:
        return f"Error: unknown tool {self.name!r}"
