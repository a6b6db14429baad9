"""A LiteLLM tool loop: the tool message's `content` is what the model reads. The message
is a dict display, which the mypy plugin has no hook for: the syntax layer checks it."""
# layers: syntax

import litellm
from litellm import Router, acompletion

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def whole(messages: list, call_id: str) -> object:
    result = lookup("Oslo")
    messages.append({"role": "tool", "tool_call_id": call_id, "content": result})  # expect: TW301
    return litellm.completion(model="gpt-4o", messages=messages)  # expect: TW201


def stringified(call_id: str) -> dict[str, str]:
    result = lookup("Oslo")
    return {"role": "tool", "tool_call_id": call_id, "content": str(result)}  # expect: TW201, TW301


def artifacts(router: Router, call_id: str) -> object:
    result = lookup("Oslo")
    rows = [artifact.data for artifact in result.artifacts]
    message = {"role": "tool", "tool_call_id": call_id, "content": f"{rows}"}  # expect: TW302
    return router.completion(model="gpt-4o", messages=[message])  # expect: TW302


async def prompt(call_id: str) -> object:
    result = lookup("Oslo")
    messages = [{"role": "user", "content": result}]
    return await acompletion("gpt-4o", messages)  # expect: TW201


def responses_item(call_id: str) -> dict[str, str]:
    result = lookup("Oslo")
    return {"type": "function_call_output", "call_id": call_id, "output": repr(result)}  # expect: TW201, TW301
