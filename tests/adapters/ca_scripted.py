"""A CrewAI LLM that replays canned replies and records every request it gets."""

from __future__ import annotations

import json
import os
from typing import Any

# CrewAI reads these at import: no telemetry, no tracing, no network.
os.environ.setdefault("OPENAI_API_KEY", "fake")
os.environ["CREWAI_DISABLE_TELEMETRY"] = "true"
os.environ["CREWAI_DISABLE_TRACKING"] = "true"
os.environ["CREWAI_TRACING_ENABLED"] = "false"
os.environ["OTEL_SDK_DISABLED"] = "true"

from crewai.llms.base_llm import BaseLLM
from pydantic import Field


class ScriptedLLM(BaseLLM):
    """`native=True` answers with OpenAI-style tool calls, else with ReAct text."""

    replies: list[Any]
    native: bool = False
    requests: list[str] = Field(default_factory=list)

    def call(  # type: ignore[override]
        self,
        messages: Any,
        tools: Any = None,
        callbacks: Any = None,
        available_functions: Any = None,
        from_task: Any = None,
        from_agent: Any = None,
        response_model: Any = None,
    ) -> Any:
        # Everything the provider would be sent: the messages and the tool schemas.
        self.requests.append(json.dumps({"messages": messages, "tools": tools}, default=repr))
        return self.replies.pop(0)

    def supports_function_calling(self) -> bool:
        return self.native

    def supports_stop_words(self) -> bool:
        return False

    def last_messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = json.loads(self.requests[-1])["messages"]
        return messages


def call(native: bool, index: int, name: str, arguments: dict[str, Any]) -> Any:
    """One tool call as the LLM would write it."""
    if native:
        return [
            {
                "id": f"call_{index}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ]
    return f"Thought: I need {name}\nAction: {name}\nAction Input: {json.dumps(arguments)}"


def final(native: bool, text: str) -> str:
    return text if native else f"Thought: I now know the final answer\nFinal Answer: {text}"
