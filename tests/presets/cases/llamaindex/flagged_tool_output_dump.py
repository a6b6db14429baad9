"""A ToolOutput serialised into a message: the dump holds `raw_output`."""

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import ToolOutput


def dumped(output: ToolOutput) -> ChatMessage:
    return ChatMessage(role="tool", content=output.model_dump_json())  # expect: TW203
