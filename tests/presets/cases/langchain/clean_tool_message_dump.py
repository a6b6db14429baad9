"""A ToolMessage's content, and a dump of a message that is no result, into a prompt."""

from langchain_core.messages import HumanMessage, ToolMessage


def forward(message: ToolMessage) -> HumanMessage:
    return HumanMessage(content=message.content)


def quoted(message: HumanMessage) -> HumanMessage:
    return HumanMessage(content=message.model_dump_json())
