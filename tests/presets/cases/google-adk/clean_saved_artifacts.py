# layers: syntax
# (mypy types ADK from its sources, which the test environment cannot hold: pyproject.toml)
"""Save the data as an artifact, return a short text: the name, the version, a count."""

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
    version = await tool_context.save_artifact("rows.json", part)
    return {"result": f"{len(rows)} stations saved as rows.json (version {version})"}


async def timetable(city: str, tool_context: ToolContext) -> dict[str, object]:
    """The timetable of a city, saved as a PDF."""
    pdf = download(city)
    name = f"timetable-{city}.pdf"
    await tool_context.save_artifact(
        filename=name,
        artifact=types.Part.from_bytes(data=pdf, mime_type="application/pdf"),
    )
    return {"result": f"saved {name}", "size": len(pdf)}


def plain(city: str, store: dict[str, object]) -> dict[str, str]:
    """Not a tool context: a dict's method is no run-only slot."""
    rows = fetch(city)
    store.setdefault("rows", rows)
    return {"result": json.dumps(rows)}


agent = Agent(name="trips", model="m", tools=[stations, timetable, plain])
