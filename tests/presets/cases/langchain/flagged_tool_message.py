"""A ToolMessage in hand: its string forms and dumps carry the artifact."""

from langchain_core.messages import HumanMessage, ToolMessage


def summarise(message: ToolMessage) -> HumanMessage:
    return HumanMessage(f"The tool said: {message}")  # expect: TW202


def echo(message: ToolMessage) -> ToolMessage:
    return ToolMessage(content=message.artifact, tool_call_id="c1")  # expect: TW302
