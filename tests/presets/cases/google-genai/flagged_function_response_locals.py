"""The response dict built in a local before the call: followed by the syntax layer's data
flow. mypy types each expression, and a local `dict[str, str]` no longer says where its
values came from."""
# layers: syntax

from google.genai import types

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def stringified(city: str) -> types.Part:
    result = lookup(city)
    text = str(result)  # expect: TW201
    return types.Part.from_function_response(name="lookup", response={"result": text})  # expect: TW301


def artifacts(city: str) -> types.FunctionResponse:
    result = lookup(city)
    response = {"result": result.content, "data": result.artifacts}
    return types.FunctionResponse(name="lookup", response=response)  # expect: TW302


def rows(city: str) -> types.Part:
    result = lookup(city)
    data = result.artifacts[0].data
    return types.Part.from_function_response(name="lookup", response={"rows": data})  # expect: TW302
