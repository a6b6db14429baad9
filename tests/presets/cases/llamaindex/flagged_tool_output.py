"""LlamaIndex: `str(output)` is `.content`, but `repr` and the dumps carry `raw_output`."""

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import FunctionTool, ToolOutput


def observation(output: ToolOutput) -> ChatMessage:
    return ChatMessage(role="user", content="Observation: " + repr(output))  # expect: TW201


def raw(tool: FunctionTool, city: str) -> ChatMessage:
    output = tool.call(city=city)
    return ChatMessage(role="tool", content=str(output.raw_output))  # expect: TW302
