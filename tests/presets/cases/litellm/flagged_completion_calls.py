"""The messages handed to `completion`/`acompletion`: any text, never a whole result or
an artifact."""
# xfail mypy: litellm.completion is Any to mypy (untyped decorators), so no plugin hook sees the call

import litellm

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def whole() -> object:
    result = lookup("Oslo")
    return litellm.completion(model="gpt-4o", messages=[{"role": "user", "content": result}])  # expect: TW201


async def artifact() -> object:
    result = lookup("Oslo")
    rows = result.artifacts[0].data
    return await litellm.acompletion("gpt-4o", [{"role": "user", "content": rows}])  # expect: TW302
