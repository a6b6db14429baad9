"""`!r` in an f-string is the repr, whose `raw_output` goes along, even where `str()` is safe."""

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import ToolOutput


def observation(output: ToolOutput) -> ChatMessage:
    return ChatMessage(role="user", content=f"Observation: {output!r}")  # expect: TW202
