"""Text for the model, made from `result.content`, in every call the preset knows."""

import litellm
from litellm import Router

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def summary() -> object:
    result = lookup("Oslo")
    prompt = f"Summarise: {result.content}"
    return litellm.completion(model="gpt-4o", messages=[{"role": "user", "content": prompt}])


async def count(router: Router) -> object:
    result = lookup("Oslo")
    n = len(result.artifacts)
    return await router.acompletion(
        model="gpt-4o", messages=[{"role": "user", "content": f"{n} tables were kept"}]
    )
