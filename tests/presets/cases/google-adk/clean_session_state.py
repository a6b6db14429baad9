# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""Session state with plain data; a state dict that is not ADK's is not a sink."""

from google.adk.events import EventActions
from google.adk.sessions.state import State

from toolwire import ToolResult


def keep(state: State, city: str) -> None:
    state.update({"last_city": city})


def delta(city: str) -> EventActions:
    return EventActions(state_delta={"last_city": city})


def local(result: ToolResult) -> dict[str, ToolResult]:
    state: dict[str, ToolResult] = {}
    state.update({"last": result})
    return state
