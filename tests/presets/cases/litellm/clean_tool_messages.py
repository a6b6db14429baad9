"""A LiteLLM tool loop that gives the model exactly `result.content`."""

import json

import litellm
from litellm import Router

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def turn(messages: list, call_id: str, arguments: str) -> object:
    result = lookup(json.loads(arguments)["city"])
    messages.append({"role": "tool", "tool_call_id": call_id, "content": result.content})
    return litellm.completion(model="gpt-4o", messages=messages)


async def router_turn(router: Router, call_id: str) -> object:
    result = lookup("Oslo")
    message = {"role": "tool", "tool_call_id": call_id, "content": result.content}
    return await router.acompletion(model="gpt-4o", messages=[message])  # type: ignore[list-item]


def no_result(call_id: str, count: int) -> dict[str, str]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"{count} stations"}


def responses_item(call_id: str) -> dict[str, str]:
    result = lookup("Oslo")
    return {"type": "function_call_output", "call_id": call_id, "output": result.content}
