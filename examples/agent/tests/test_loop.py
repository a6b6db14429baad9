"""The transcript, the provider wire shape and suspend/resume."""

from __future__ import annotations

from agent.chat import ChatMessage
from agent.loop import ToolCall, ToolLoop
from agent.state import SuspendedRunState

CALLS = [
    ToolCall("call_1", "calculator", {"expression": "6 * 7"}),
    ToolCall("call_2", "list_files", {"path": "/src"}),
    ToolCall("call_3", "glossary", {"term": "egress"}),
    ToolCall("call_4", "memory", {"action": "get", "key": "nothing"}),
]


def test_run_builds_transcript(loop: ToolLoop) -> None:
    transcript = loop.run(CALLS)
    assert [message.role for message in transcript] == ["assistant", "tool", "tool", "tool", "tool"]
    assert transcript[0].tool_calls == tuple(CALLS)
    assert [message.tool_call_id for message in transcript[1:]] == [c.id for c in CALLS]
    assert transcript[1].content == "6 * 7 = 42"
    assert transcript[2].content == "/src (2 entries)\nagent.py  15\ntools/"
    assert transcript[3].content.startswith("egress: Data leaving the process")
    assert transcript[4].content == "(no output)"


def test_provider_wire_shape(loop: ToolLoop) -> None:
    assistant, tool_message = loop.run(CALLS[:1])
    assert assistant.to_provider() == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "calculator", "arguments": '{"expression": "6 * 7"}'},
            }
        ],
    }
    assert tool_message.to_provider() == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "6 * 7 = 42",
    }


def test_user_message() -> None:
    assert ChatMessage.user("hi").to_provider() == {"role": "user", "content": "hi"}


def test_suspend_and_resume_round_trip(loop: ToolLoop) -> None:
    state = loop.suspend("run-7", CALLS, completed=2)
    assert [call.id for call in state.pending_calls] == ["call_3", "call_4"]
    assert len(state.transcript) == 3

    restored = SuspendedRunState.from_json(state.to_json())
    assert restored == state

    transcript = loop.resume(restored)
    assert transcript == loop.run(CALLS)
