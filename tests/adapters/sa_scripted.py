"""A smolagents model that replays canned tool calls and records every request it gets."""

from __future__ import annotations

import json
from typing import Any

from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
    Model,
)


class ScriptedModel(Model):  # type: ignore[misc]
    def __init__(self, replies: list[ChatMessage]) -> None:
        super().__init__(model_id="scripted")
        self.replies = replies
        self.requests: list[str] = []

    def generate(
        self,
        messages: list[ChatMessage],
        stop_sequences: list[str] | None = None,
        response_format: dict[str, str] | None = None,
        tools_to_call_from: list[Any] | None = None,
        **kwargs: Any,
    ) -> ChatMessage:
        # Everything the provider would be sent: the messages and the tool schemas.
        self.requests.append(
            json.dumps(
                {
                    "messages": [message.dict() for message in messages],
                    "tools": [repr(vars(t)) for t in tools_to_call_from or []],
                },
                default=repr,
            )
        )
        return self.replies.pop(0)

    def tool_responses(self) -> list[str]:
        """The texts of the tool-response messages in the last request."""
        texts = []
        for message in json.loads(self.requests[-1])["messages"]:
            if message["role"] == MessageRole.TOOL_RESPONSE.value:
                texts.append("".join(part["text"] for part in message["content"]))
        return texts


def call(index: int, name: str, arguments: dict[str, Any]) -> ChatMessage:
    return ChatMessage(
        role=MessageRole.ASSISTANT,
        content="",
        tool_calls=[
            ChatMessageToolCall(
                id=f"call_{index}",
                type="function",
                function=ChatMessageToolCallFunction(name=name, arguments=arguments),
            )
        ],
    )
