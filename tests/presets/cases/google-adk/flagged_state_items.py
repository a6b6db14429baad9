# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml;
# tests/adapters/test_google_adk_mypy.py runs this file and its clean twin through mypy
# against ADK's venv)
"""An item assignment into a context's session state writes it: no result, no artifact."""

from google.adk.agents.callback_context import CallbackContext
from google.adk.sessions.state import State
from google.adk.tools import ToolContext

from toolwire import ToolResult


def forecast(city: str) -> ToolResult:
    return ToolResult.text(f"{city}: sunny")


def weather(city: str, tool_context: ToolContext) -> dict[str, str]:
    """The weather in a city."""
    result = forecast(city)
    tool_context.state["last_result"] = result  # expect: TW401
    tool_context.state["rows"] = [a.data for a in result.artifacts]  # expect: TW401
    return {"result": result.content}


def before_model(callback_context: CallbackContext) -> None:
    callback_context.state["forecast"] = forecast("Oslo")  # expect: TW401


def keep(state: State, result: ToolResult) -> None:
    state["last"] = result  # expect: TW401
