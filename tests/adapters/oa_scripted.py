"""A scripted Agents SDK model: canned responses, and a record of every input it was sent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from agents.items import ModelResponse, TResponseInputItem, TResponseStreamEvent
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)


def tool_call(name: str, arguments: dict[str, Any], call_id: str = "call_1") -> ModelResponse:
    call = ResponseFunctionToolCall(
        arguments=json.dumps(arguments), call_id=call_id, name=name, type="function_call"
    )
    return ModelResponse(output=[call], usage=Usage(), response_id=None)


def final(text: str) -> ModelResponse:
    message = ResponseOutputMessage(
        id="msg_1",
        content=[ResponseOutputText(text=text, annotations=[], type="output_text")],
        role="assistant",
        status="completed",
        type="message",
    )
    return ModelResponse(output=[message], usage=Usage(), response_id=None)


class ScriptedModel(Model):
    """Answers each call with the next canned response and keeps the `input` it got."""

    def __init__(self, *responses: ModelResponse) -> None:
        self.responses = list(responses)
        self.inputs: list[str | list[TResponseInputItem]] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        *args: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.inputs.append(input)
        return self.responses.pop(0)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("the scripted model does not stream")
