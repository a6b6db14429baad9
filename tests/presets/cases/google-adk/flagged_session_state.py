# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""Session state is persisted and resumed: no result, no artifact."""

from google.adk.events import EventActions
from google.adk.sessions.state import State

from toolwire import ToolResult


def keep(state: State, result: ToolResult) -> None:
    state.update({"last": result})  # expect: TW401


def delta(result: ToolResult) -> EventActions:
    return EventActions(state_delta={"rows": result.artifacts})  # expect: TW401
