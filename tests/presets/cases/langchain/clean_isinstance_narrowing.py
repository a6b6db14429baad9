"""A converter that takes a message or its spellings: a branch under `isinstance(m, str)`
(or `dict`, `Sequence`) never sees the `ToolMessage`, so formatting there is clean."""

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage


def convert(message: ToolMessage | str | dict[str, Any] | tuple[str, str]) -> HumanMessage:
    if isinstance(message, ToolMessage):
        return HumanMessage(content=message.content)
    if isinstance(message, str):
        return HumanMessage(content=f"{message}")
    elif isinstance(message, dict):
        return HumanMessage(content=f"{message['content']} from {message}")
    elif isinstance(message, Sequence):
        role, text = message
        return HumanMessage(content=f"{role}: {text}")
    return HumanMessage(content="?")
