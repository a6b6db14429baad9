"""The guard on real provider clients (openai, anthropic, requests) over mock transports.

No request leaves the machine: every client is given a transport that answers locally.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import httpx2
import openai
import pytest
import requests

from toolwire import ToolArtifact, ToolResult, guard

SECRET = "ARTIFACT-ONLY-http-9b2c"
CHAT = {
    "id": "x",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}
    ],
}
MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "m",
    "content": [{"type": "text", "text": "ok"}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


class Wire:
    """A mock transport that keeps every request body it was sent."""

    def __init__(self, reply: dict[str, Any]) -> None:
        self.bodies: list[bytes] = []
        self.reply = reply

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(request.content)
        return httpx.Response(200, json=self.reply)

    def client(self) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self))

    def client2(self) -> httpx2.Client:
        def handle(request: httpx2.Request) -> httpx2.Response:
            self.bodies.append(request.content)
            return httpx2.Response(200, json=self.reply)

        return httpx2.Client(transport=httpx2.MockTransport(handle))


@pytest.fixture
def installed() -> Iterator[guard.Guard]:
    installed = guard.install("record")
    yield installed
    installed.uninstall()


def result() -> ToolResult:
    table = ToolArtifact.table("hotels", ["name", "note"], [["Grand", SECRET]])
    return ToolResult.text("1 hotel in Oslo", table)


def test_openai_clean_tool_message_and_leaked_user_prompt(installed: guard.Guard) -> None:
    wire = Wire(CHAT)
    client = openai.OpenAI(api_key="k", http_client=wire.client())
    made = result()
    tool = {"role": "tool", "tool_call_id": "c1", "content": made.content}
    client.chat.completions.create(model="m", messages=[tool])  # type: ignore[list-item]
    assert installed.leaks == []
    pasted = {"role": "user", "content": f"rows: {made.artifacts[0].data['rows']}"}
    client.chat.completions.create(model="m", messages=[tool, pasted])  # type: ignore[list-item]
    [leak] = installed.leaks
    assert (leak.label, leak.type) == ("hotels", "table")
    assert leak.where == "POST https://api.openai.com/v1/chat/completions (httpx)"
    assert leak.origin.endswith(f"{__file__}:{result.__code__.co_firstlineno + 2}")
    assert SECRET in leak.matched
    assert len(wire.bodies) == 2  # record mode sends it: the test fails afterwards


def test_anthropic_clean_tool_result_and_leaked_system_message(installed: guard.Guard) -> None:
    wire = Wire(MESSAGE)
    client = anthropic.Anthropic(api_key="k", http_client=wire.client2())
    made = result()
    block = {"type": "tool_result", "tool_use_id": "t1", "content": made.content}
    messages: Any = [{"role": "user", "content": [block]}]
    client.messages.create(model="m", max_tokens=10, messages=messages)
    assert installed.leaks == []
    system = "Known hotels: " + json.dumps(made.artifacts[0].data)
    client.messages.create(model="m", max_tokens=10, messages=messages, system=system)
    [leak] = installed.leaks
    assert leak.where == "POST https://api.anthropic.com/v1/messages (httpx2)"
    assert SECRET in leak.matched


def test_raise_mode_stops_the_request_before_it_leaves() -> None:
    installed = guard.install("raise")
    try:
        wire = Wire(CHAT)
        client = openai.OpenAI(api_key="k", http_client=wire.client(), max_retries=0)
        made = result()
        # openai wraps what its transport raises; the guard's error is the cause.
        with pytest.raises(openai.APIConnectionError) as raised:
            client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": str(made.artifacts[0].data)}]
            )
        assert isinstance(raised.value.__cause__, guard.ArtifactLeakError)
        assert "artifact 'hotels' (type 'table')" in str(raised.value.__cause__)
        assert wire.bodies == []
    finally:
        installed.uninstall()


def test_the_guard_never_changes_what_is_sent() -> None:
    guard.uninstall()  # the first request goes out with no guard at all
    made = result()
    messages: Any = [{"role": "user", "content": f"{made.artifacts[0].data} and ü"}]
    bare = Wire(CHAT)
    openai.OpenAI(api_key="k", http_client=bare.client()).chat.completions.create(
        model="m", messages=messages
    )
    installed = guard.install("record")
    try:
        watched = Wire(CHAT)
        openai.OpenAI(api_key="k", http_client=watched.client()).chat.completions.create(
            model="m", messages=messages
        )
    finally:
        installed.uninstall()
    assert watched.bodies == bare.bodies
    assert httpx.Client.send.__name__ == "send" and not hasattr(httpx.Client.send, "__wrapped__")


def test_no_false_alarm_on_short_numeric_content_or_earlier_wire_values(
    installed: guard.Guard,
) -> None:
    wire = Wire(CHAT)
    client = openai.OpenAI(api_key="k", http_client=wire.client())
    # The model asked for this query before the tool ran: it was on the wire first.
    asked = "hotels near the harbour front"
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": asked}])
    data = {"query": asked, "count": 123456789012345, "status": "ok", "id": "000000000000000"}
    made = ToolResult.text(
        "Grand Hotel Oslo has rooms", ToolArtifact("rows", "hits", data), ToolArtifact.text("t", "")
    )
    echo = f"{asked} ok 123456789012345 000000000000000 Grand Hotel Oslo has rooms"
    client.chat.completions.create(model="m", messages=[{"role": "user", "content": echo}])
    assert made.artifacts and installed.leaks == []


def test_requests_session_is_inspected(installed: guard.Guard) -> None:
    class Local(requests.adapters.BaseAdapter):
        def send(self, request: Any, **kwargs: Any) -> requests.Response:
            response = requests.Response()
            response.status_code, response._content = 200, b"{}"
            return response

        def close(self) -> None: ...

    session = requests.Session()
    session.mount("https://", Local())
    made = result()
    session.post("https://api.example.test/v1/generate", json={"p": made.artifacts[0].data})
    [leak] = installed.leaks
    assert leak.where == "POST https://api.example.test/v1/generate (requests)"


def test_import_toolwire_loads_neither_the_guard_nor_pytest() -> None:
    code = (
        "import sys, toolwire; toolwire.ToolResult.text('x', toolwire.ToolArtifact.text('l', 'y'));"
        "print(sorted(m for m in ('toolwire.guard', 'pytest', 'httpx', 'requests') "
        "if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
