"""A ToolOutput's text, and a dump of a message that holds no output, into a message."""

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import ToolOutput


def text(output: ToolOutput) -> ChatMessage:
    return ChatMessage(role="tool", content=output.content)


def dumped(message: ChatMessage) -> ChatMessage:
    return ChatMessage(role="user", content=message.model_dump_json())
