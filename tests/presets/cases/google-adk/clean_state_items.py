# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml;
# tests/adapters/test_google_adk_mypy.py runs it through mypy against ADK's venv)
"""Session state with the content or plain data; a dict, or an untyped parameter, is not
ADK's state (never judged by the name)."""

from google.adk.agents.callback_context import CallbackContext
from google.adk.sessions import Session
from google.adk.sessions.state import State
from google.adk.tools import ToolContext

from toolwire import ToolResult


def forecast(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: sunny")


def weather(city: str, tool_context: ToolContext) -> dict[str, str]:
    """The weather in a city."""
    result = forecast(city)
    tool_context.state["last_result"] = result.content
    tool_context.state["failed"] = result.is_error
    tool_context.state[f"city:{city}"] = len(result.artifacts)
    return {"result": result.content}


def before_model(callback_context: CallbackContext) -> None:
    callback_context.state["forecast"] = forecast("Oslo").content


def keep(state: State, city: str) -> None:
    state["last_city"] = city


def untyped(tool_context, state, result: ToolResult) -> None:  # type: ignore[no-untyped-def]
    tool_context.state["last"] = result
    state["last"] = result


def local(result: ToolResult) -> dict[str, ToolResult]:
    cache: dict[str, ToolResult] = {}
    cache["last"] = result
    return cache


def session_copy(session: Session, result: ToolResult) -> None:
    # `Session.state` is a plain dict: ADK persists state from the event's delta, not from it
    session.state["last"] = result
