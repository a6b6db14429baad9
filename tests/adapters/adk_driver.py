"""Run a module's ADK agent with a scripted model; runs in the ADK venv (tests/adapters/adk_env.py).

    python adk_driver.py <dir> <module> '<calls json>'

`<module>` (imported from `<dir>`) binds `agent`, an `LlmAgent` whose tools are under test.
Each call `{"tool": name, "args": {...}}` is one `InMemoryRunner` run in a fresh session:
the scripted model asks for that function call, then answers with text. Printed as JSON, per
call: the declarations the model was given, the function response it read, the run's error
(if it raised), the session state, the events as ADK stores them and the artifacts in the
artifact service (name, custom metadata, the toolwire artifact it holds).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

from toolwire.adapters.google_adk import from_artifact_part


class ScriptedModel(BaseLlm):
    """Asks for one function call, then says "done"; keeps what it was sent."""

    call: dict[str, Any]
    requests: list[LlmRequest]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request)
        if len(self.requests) == 1:
            part = types.Part.from_function_call(name=self.call["tool"], args=self.call["args"])
        else:
            part = types.Part.from_text(text="done")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def _declarations(request: LlmRequest) -> list[dict[str, Any]]:
    tools = (request.config.tools if request.config else None) or []
    return [
        d.model_dump(mode="json", exclude_none=True)
        for tool in tools
        for d in (tool.function_declarations or [])
    ]


def _response(request: LlmRequest) -> dict[str, Any] | None:
    for content in reversed(request.contents):
        for part in content.parts or []:
            if part.function_response is not None:
                return {
                    "name": part.function_response.name,
                    "response": part.function_response.response,
                }
    return None


async def _run(agent: Any, call: dict[str, Any]) -> dict[str, Any]:
    model = ScriptedModel(model="scripted", call=call, requests=[])
    agent.model = model
    runner = InMemoryRunner(agent=agent, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    error = None
    try:
        message = types.Content(role="user", parts=[types.Part.from_text(text="go")])
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
    except Exception as raised:  # the tool's exception ended the run
        error = f"{type(raised).__name__}: {raised}"
    stored = await runner.session_service.get_session(
        app_name="app", user_id="u", session_id=session.id
    )
    assert stored is not None
    service = runner.artifact_service
    assert service is not None
    artifacts = []
    for name in await service.list_artifact_keys(
        app_name="app", user_id="u", session_id=session.id
    ):
        part = await service.load_artifact(
            app_name="app", user_id="u", session_id=session.id, filename=name
        )
        version = await service.get_artifact_version(
            app_name="app", user_id="u", session_id=session.id, filename=name
        )
        artifacts.append(
            {
                "name": name,
                "metadata": version.custom_metadata if version else None,
                "artifact": from_artifact_part(part).to_dict(),
            }
        )
    return {
        "declarations": _declarations(model.requests[0]),
        "response": _response(model.requests[1]) if len(model.requests) > 1 else None,
        "error": error,
        "state": dict(stored.state),
        "events": [event.model_dump_json() for event in stored.events],
        "artifacts": artifacts,
    }


async def main(directory: str, module_name: str, calls: list[dict[str, Any]]) -> None:
    sys.path.insert(0, directory)
    module = importlib.import_module(module_name)
    print(json.dumps([await _run(module.agent, call) for call in calls]))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))
