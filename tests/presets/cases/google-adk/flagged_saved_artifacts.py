# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""Data saved with `tool_context.save_artifact` is in the run-only channel: the same data
returned too goes to the model (TW302)."""

import json

from google.adk.agents import Agent
from google.adk.tools import ToolContext
from google.genai import types


def fetch(city: str) -> list[dict[str, str]]:
    return [{"id": "s1", "city": city}]


def download(city: str):  # type: ignore[no-untyped-def]
    return city.encode()


async def stations(city: str, tool_context: ToolContext) -> dict[str, str]:
    """The stations of a city, saved as rows.json."""
    rows = fetch(city)
    part = types.Part.from_text(text=json.dumps(rows))
    await tool_context.save_artifact("rows.json", part)
    return {"result": json.dumps(rows)}  # expect: TW302


async def timetable(city: str, tool_context: ToolContext) -> dict[str, object]:
    """The timetable of a city, saved as a PDF."""
    pdf = download(city)
    await tool_context.save_artifact(
        filename="timetable.pdf",
        artifact=types.Part.from_bytes(data=pdf, mime_type="application/pdf"),
    )
    return {"result": "saved", "pdf": pdf}  # expect: TW302


agent = Agent(name="trips", model="m", tools=[stations, timetable])
