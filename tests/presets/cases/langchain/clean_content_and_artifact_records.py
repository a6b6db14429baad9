"""Content-and-artifact tools whose content says something about the records (how many,
what was asked) without being them: the records go to `ToolMessage.artifact` only."""

import json
from typing import Literal

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, tool


def search_api(query: str) -> list[dict[str, str]]:
    return [{"snippet": query, "title": query, "link": "https://example.com"}]


@tool(response_format="content_and_artifact")
def records(query: str) -> tuple[str, list[dict[str, str]]]:
    """Look records up."""
    rows = search_api(query)
    return f"{len(rows)} rows found", rows


class SearchResults(BaseTool):
    name: str = "search_results"
    description: str = "Search, keep the results for the application."
    response_format: Literal["content_and_artifact"] = "content_and_artifact"

    def _run(self, query: str) -> tuple[str, dict[str, object]]:
        raw_results = search_api(query)
        count = len(raw_results)
        titles = ", ".join(t for t in ("news", "web"))
        artifact = {"count": count, "query": query, "results": [r for r in raw_results]}
        return json.dumps({"count": count, "kinds": titles, "query": query}), artifact


def node_message(pair: tuple[str, object], call_id: str) -> ToolMessage:
    """The pair taken apart by position: the content was never the artifact."""
    content, artifact = pair
    return ToolMessage(content, artifact=artifact, tool_call_id=call_id)


def done(query: str, call_id: str) -> ToolMessage:
    rows = search_api(query)
    summary = f"{len(rows)} results for {query}"
    return ToolMessage(content=summary, artifact={"rows": rows, "summary": summary}, tool_call_id=call_id)
