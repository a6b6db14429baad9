"""A whole google-genai loop turn that gives the model only the text."""

from google import genai
from google.genai import types
from google.genai.chats import Chat

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def loop(client: genai.Client, call: types.FunctionCall) -> types.GenerateContentResponse:
    result = lookup(str((call.args or {}).get("city", "")))
    part = types.Part.from_function_response(name="lookup", response={"result": result.content})
    contents = [types.Content(role="user", parts=[part])]
    return client.models.generate_content(model="m", contents=contents)


def chat_turn(chat: Chat, city: str) -> types.GenerateContentResponse:
    result = lookup(city)
    if result.is_error:
        return chat.send_message(f"The lookup failed: {result.content}")
    return chat.send_message([types.Part.from_text(text=result.content)])
