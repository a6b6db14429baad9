"""A ToolReturn whose model-facing value is a whole ToolResult."""

from pydantic_ai import ToolReturn

from toolwire import ToolResult


def order_return(result: ToolResult) -> ToolReturn:
    return ToolReturn(return_value=result)  # expect: TW301
