"""A ToolMessage serialised into a prompt: the dump holds its artifact."""

from langchain_core.messages import HumanMessage, ToolMessage


def forward(message: ToolMessage) -> HumanMessage:
    return HumanMessage(content=message.model_dump_json())  # expect: TW203
