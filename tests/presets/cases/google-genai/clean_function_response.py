"""The shapes google-genai accepts: a dict around exactly `result.content`."""

from google.genai import types

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def response(city: str) -> types.FunctionResponse:
    result = lookup(city)
    return types.FunctionResponse(name="lookup", response={"result": result.content})


def part(city: str) -> types.Part:
    result = lookup(city)
    if result.is_error:
        return types.Part.from_function_response(name="lookup", response={"error": result.content})
    return types.Part.from_function_response(name="lookup", response={"output": result.content})


def no_result(city: str, count: int) -> types.Part:
    response = {"result": f"{city}: ok", "count": count}
    return types.Part.from_function_response(name="lookup", response=response)
