"""A raw google-genai tool loop: the function response is what the model reads."""

from google.genai import types

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def whole(city: str) -> types.FunctionResponse:
    result = lookup(city)
    return types.FunctionResponse(name="lookup", response={"result": result})  # expect: TW301


def stringified(city: str) -> types.Part:
    result = lookup(city)
    return types.Part.from_function_response(name="lookup", response={"result": str(result)})  # expect: TW201, TW301


def artifacts(city: str) -> types.FunctionResponse:
    result = lookup(city)
    return types.FunctionResponse(name="lookup", response={"data": result.artifacts})  # expect: TW302
