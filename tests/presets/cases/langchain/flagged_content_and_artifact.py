"""langchain-community's DuckDuckGoSearchResults, rebuilt: a content-and-artifact tool whose
content is the artifact again, serialised, so the whole record set goes to the model.
"""
# layers: syntax

import json
from typing import Literal

from langchain_core.tools import BaseTool, tool


def search_api(query: str) -> list[dict[str, str]]:
    return [{"snippet": query, "title": query, "link": "https://example.com", "date": ""}]


class SearchResults(BaseTool):
    name: str = "duckduckgo_results_json"
    description: str = "A wrapper around Duck Duck Go Search."
    response_format: Literal["content_and_artifact"] = "content_and_artifact"

    def _run(self, query: str) -> tuple[str, list[dict[str, str]]]:
        raw_results = search_api(query)
        results = [
            {"snippet": r["snippet"], "title": r["title"], "link": r["link"]} for r in raw_results
        ]
        return json.dumps(results), raw_results  # expect: TW302


@tool(response_format="content_and_artifact")
def records(query: str) -> tuple[str, list[dict[str, str]]]:
    """Look records up."""
    rows = search_api(query)
    return json.dumps(rows), rows  # expect: TW302
