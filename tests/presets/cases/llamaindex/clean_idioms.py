"""Idiomatic LlamaIndex: `str(output)` and `output.content` are the model's text."""

from llama_index.core.llms import ChatMessage
from llama_index.core.tools import FunctionTool, ToolOutput

from toolwire import ToolResult
from toolwire.adapters.llamaindex import ResultFunctionTool


def forecast(city: str) -> str:
    """The forecast for a city."""
    return f"Sunny in {city}"


def balance(account: str) -> ToolResult:
    """An account's balance."""
    return ToolResult.text(f"{account}: positive")


forecast_tool = FunctionTool.from_defaults(fn=forecast)
balance_tool = ResultFunctionTool.from_defaults(fn=balance)


def observe(tool: FunctionTool, city: str) -> list[ChatMessage]:
    output = tool.call(city=city)
    return [
        ChatMessage(role="system", content="You are terse."),
        ChatMessage(role="tool", content=str(output)),
        ChatMessage(role="tool", content=output.content),
        ChatMessage(role="user", content=f"Observation: {output}"),
    ]


def failed(output: ToolOutput) -> bool:
    return output.is_error
