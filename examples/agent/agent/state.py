"""Resumable run state: what a suspended run needs to continue, and nothing else."""

from __future__ import annotations

import json
from dataclasses import dataclass

from agent.chat import ChatMessage, ToolCall


@dataclass(frozen=True)
class SuspendedRunState:
    """A run paused between tool calls (e.g. waiting for a human approval).

    It holds wire-level data only: the transcript so far and the calls still to run.
    It is serialised to JSON and may be resumed by another process.
    """

    run_id: str
    transcript: tuple[ChatMessage, ...]
    pending_calls: tuple[ToolCall, ...]

    def to_json(self) -> str:
        return json.dumps(
            {
                "run_id": self.run_id,
                "transcript": [message.to_provider() for message in self.transcript],
                "pending_calls": [
                    {"id": call.id, "name": call.name, "arguments": call.arguments}
                    for call in self.pending_calls
                ],
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, payload: str) -> SuspendedRunState:
        data = json.loads(payload)
        transcript = tuple(_message_from_provider(item) for item in data["transcript"])
        pending = tuple(
            ToolCall(item["id"], item["name"], dict(item["arguments"]))
            for item in data["pending_calls"]
        )
        return cls(run_id=str(data["run_id"]), transcript=transcript, pending_calls=pending)


def _message_from_provider(item: dict[str, object]) -> ChatMessage:
    calls: list[ToolCall] = []
    raw_calls = item.get("tool_calls", [])
    assert isinstance(raw_calls, list)
    for raw in raw_calls:
        function = raw["function"]
        calls.append(ToolCall(raw["id"], function["name"], json.loads(function["arguments"])))
    tool_call_id = item.get("tool_call_id")
    return ChatMessage(
        role=str(item["role"]),
        content=str(item["content"]),
        tool_call_id=None if tool_call_id is None else str(tool_call_id),
        tool_calls=tuple(calls),
    )
