"""Counts the words of a text."""

from __future__ import annotations

from agent.tools.base import Tool


class WordCountTool(Tool):
    name = "word_count"
    description = "Counts the words in 'text'."

    def execute(self, arguments: dict[str, str]) -> str:
        count = len(arguments.get("text", "").split())
        return "1 word" if count == 1 else f"{count} words"
