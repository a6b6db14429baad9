"""A ToolMessage whose content is its artifact again, serialised, and a content-and-artifact
tool whose content is a projection of its artifact."""
# layers: syntax

import json

from langchain_core.messages import ToolMessage
from langchain_core.tools import tool


def search_api(query: str) -> list[dict[str, str]]:
    return [{"snippet": query, "title": query, "link": "https://example.com"}]


def message(query: str, call_id: str) -> ToolMessage:
    rows = search_api(query)
    return ToolMessage(content=json.dumps(rows), artifact=rows, tool_call_id=call_id)  # expect: TW302


@tool(response_format="content_and_artifact")
def titles(query: str) -> tuple[str, object]:
    """Look records up."""
    found = search_api(query)
    listing = "\n".join(f"{r['title']}: {r['snippet']}" for r in found)
    return listing, {"rows": found}  # expect: TW302
