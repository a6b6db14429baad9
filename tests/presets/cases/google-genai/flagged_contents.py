"""What a loop hands the model besides function responses: text, never a result."""

from google import genai
from google.genai import types
from google.genai.chats import Chat

from toolwire import ToolResult


def lookup(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: 1 station")


def chat_turn(chat: Chat, city: str) -> types.GenerateContentResponse:
    result = lookup(city)
    return chat.send_message(result)  # expect: TW201


def text_part(city: str) -> types.Part:
    result = lookup(city)
    return types.Part.from_text(text=result.artifacts[0].label)  # expect: TW302


def generate(client: genai.Client, city: str) -> types.GenerateContentResponse:
    result = lookup(city)
    return client.models.generate_content(model="m", contents=result.artifacts[0].label)  # expect: TW302


# xfail syntax: the syntax layer does not type `client.models` (a property); mypy does
