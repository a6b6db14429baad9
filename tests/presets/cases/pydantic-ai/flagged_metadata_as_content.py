"""The DuckDuckGoSearchResults pattern in pydantic-ai: the records for the application are
also serialised into the value the model reads.
"""
# layers: syntax

import json

from pydantic_ai import ToolReturn


def fetch(key: str) -> list[dict[str, str]]:
    return [{"id": key, "items": "2 chairs"}]


def order_records(key: str) -> ToolReturn:
    rows = fetch(key)
    return ToolReturn(return_value=json.dumps(rows), metadata=rows)  # expect: TW302
