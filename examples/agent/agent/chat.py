"""Chat messages and tool calls, in the shape the provider expects on the wire."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ToolCall:
    """One function call requested by the model."""

    id: str
    name: str
    arguments: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ChatMessage:
    """One message of the transcript. Everything in ``content`` goes to the provider."""

    role: str
    content: str
    tool_call_id: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()

    @classmethod
    def tool_result(cls, tool_call_id: str, content: str) -> ChatMessage:
        """The wire sink for tool output: ``content`` is sent to the model verbatim."""
        return cls(role="tool", content=content, tool_call_id=tool_call_id)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        return cls(role="user", content=content)

    @classmethod
    def assistant(cls, content: str = "", tool_calls: tuple[ToolCall, ...] = ()) -> ChatMessage:
        return cls(role="assistant", content=content, tool_calls=tool_calls)

    def to_provider(self) -> dict[str, object]:
        """The OpenAI chat-completions message dict."""
        message: dict[str, object] = {"role": self.role, "content": self.content}
        if self.tool_call_id is not None:
            message["tool_call_id"] = self.tool_call_id
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": json.dumps(call.arguments, sort_keys=True),
                    },
                }
                for call in self.tool_calls
            ]
        return message
