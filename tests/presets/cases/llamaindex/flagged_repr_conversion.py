"""`!r` in an f-string is the repr, whose `raw_output` goes along, even where `str()` is safe."""
# xfail mypy: `{x!r}` is a `str.format` call to mypy, judged as the safe `format` form

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import ToolOutput


def observation(output: ToolOutput) -> ChatMessage:
    return ChatMessage(role="user", content=f"Observation: {output!r}")  # expect: TW202
