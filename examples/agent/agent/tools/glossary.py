"""Looks up terms in a glossary. Asynchronous, as a real lookup service would be."""

from __future__ import annotations

import asyncio

from agent.tools.base import Tool

_GLOSSARY = {
    "artifact": "Structured, run-only output of a tool; shown to people, never sent to the model.",
    "egress": "Data leaving the process for an external service, such as an LLM provider.",
    "seam": "The single place every tool call passes through before its result leaves.",
}


class GlossaryTool(Tool):
    name = "glossary"
    description = "Defines a 'term' from the project glossary."

    async def execute(self, arguments: dict[str, str]) -> str:  # type: ignore[override]
        await asyncio.sleep(0)  # stands in for an awaited lookup
        term = arguments.get("term", "").strip().lower()
        if term not in _GLOSSARY:
            return f"No glossary entry for {term!r}. Known terms: {', '.join(sorted(_GLOSSARY))}."
        return f"{term}: {_GLOSSARY[term]}"
