"""`isinstance` with the result type itself (or with anything but a builtin) keeps it."""

from langchain_core.messages import HumanMessage, ToolMessage


def convert(message: ToolMessage | str) -> HumanMessage:
    if isinstance(message, str):
        return HumanMessage(content=message)
    if isinstance(message, ToolMessage):
        return HumanMessage(content=f"Observation: {message}")  # expect: TW202
    return HumanMessage(content="?")


def either(message: ToolMessage | str) -> HumanMessage:
    if not isinstance(message, str):
        return HumanMessage(content=f"Observation: {message}")  # expect: TW202
    else:
        return HumanMessage(content=message)
