"""A leak no static check can see, and the guard catching it at run time.

The tool loop hands each result to a "presenter" looked up by name with `getattr`, from
a setting read at run time. One presenter pastes the artifact rows into the follow-up
prompt. `toolwire check` cannot know which method `getattr` returns, so it reports
nothing; `toolwire.guard` sees the rows in the request and stops it.

    toolwire check examples/guard_dynamic_leak.py     # no finding
    python examples/guard_dynamic_leak.py             # the guard catches the leak

No request leaves the machine: the openai client talks to a local mock transport.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
import openai

from toolwire import ToolArtifact, ToolResult, guard

REPLY = {
    "id": "r1",
    "object": "chat.completion",
    "created": 0,
    "model": "demo",
    "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}
    ],
}


def records() -> ToolResult:
    rows = [["1", "Ada Lovelace", "London"], ["5", "Joan Clarke", "London"]]
    return ToolResult.text(
        "2 employees in London", ToolArtifact.table("Employees", ["id", "name", "city"], rows)
    )


class Presenters:
    """How a tool result is shown to the model; chosen by name in the deployment config."""

    def present_plain(self, result: ToolResult) -> str:
        return result.content

    def present_verbose(self, result: ToolResult) -> str:
        parts = [result.content]
        for item in result.artifacts:
            parts.append(str(item.data))  # the leak: run-only rows into the prompt
        return "\n".join(parts)


def follow_up(result: ToolResult, style: str) -> dict[str, Any]:
    present = getattr(Presenters(), f"present_{style}")
    return {"role": "user", "content": "Summarise: " + present(result)}


def main() -> int:
    client = openai.OpenAI(
        api_key="demo",
        max_retries=0,
        http_client=httpx.Client(
            transport=httpx.MockTransport(lambda r: httpx.Response(200, json=REPLY))
        ),
    )
    guard.install("raise")
    style = os.environ.get("PRESENTER", "verbose")
    try:
        client.chat.completions.create(model="demo", messages=[follow_up(records(), style)])  # type: ignore[list-item]
    except openai.APIConnectionError as error:
        leak = error.__cause__
        if isinstance(leak, guard.ArtifactLeakError):
            print(leak)
            return 1
        raise
    print(f"sent (presenter {style!r}): no artifact data reached the model")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
