"""`toolwire migrate` on ADK function tools, proved through ADK's `InMemoryRunner`.

Every tool is called before and after the real `toolwire migrate` command, in the ADK venv
(tests/adapters/adk_env.py): ADK declares the same tools, the model reads the same text, an
error stays an error (a returned "Error: ..." is ADK's `{"error": ...}` afterwards, a raise
still ends the run), and an artifact added to a migrated tool is only in the artifact
service. `toolwire check` and `toolwire init` see the same tools from the same preset data.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from adk_env import drive

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
MARKER = "ARTIFACT-ONLY-41c9"

TRIPS = '''
"""Trip tools for an ADK agent."""

from __future__ import annotations  # string annotations: ADK resolves them through the wrapper

import json

from google.adk.agents import Agent, LlmAgent
from google.adk.tools import FunctionTool, LongRunningFunctionTool, ToolContext

CITIES = {"oslo": 3, "rome": 5}


def weather(city: str) -> str:
    """The weather in a city."""
    if city not in CITIES:
        return f"Error: unknown city {city!r}"
    return f"{city}: sunny"


async def stations(city: str, tool_context: ToolContext) -> str:
    """Count the stations and remember the city."""
    tool_context.state["last_city"] = city
    return json.dumps({"city": city, "stations": CITIES.get(city, 0)})


def book(city: str, nights: int = 1) -> str:
    """Book a hotel."""
    if nights < 1:
        raise ValueError("nights must be positive")
    return f"booked {nights} nights in {city}"


def start_export(city: str) -> str:
    """Start an export."""
    return f"export of {city} started"


def tidy(text: str) -> str:
    return text.strip()


agent = Agent(
    name="trips",
    model="unused",
    tools=[
        weather,
        FunctionTool(func=stations),
        FunctionTool(book),
        LongRunningFunctionTool(start_export),
    ],
)
helper = LlmAgent(name="helper", model="unused", tools=[tidy])
'''

CALLS: list[dict[str, Any]] = [
    {"tool": "weather", "args": {"city": "oslo"}},
    {"tool": "weather", "args": {"city": "paris"}},
    {"tool": "stations", "args": {"city": "rome"}},
    {"tool": "book", "args": {"city": "rome", "nights": 2}},
    {"tool": "book", "args": {"city": "rome", "nights": 0}},
    {"tool": "start_export", "args": {"city": "oslo"}},
]


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["google-adk"]\n', encoding="utf-8"
    )
    (tmp_path / "trips.py").write_text(textwrap.dedent(TRIPS).lstrip(), encoding="utf-8")
    return tmp_path


def _toolwire(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLWIRE, *args], cwd=root, capture_output=True, text=True)


def _text(seen: dict[str, Any]) -> tuple[str, str] | None:
    """The one key and the text of the function response the model read."""
    if seen["response"] is None:
        return None
    ((key, text),) = seen["response"]["response"].items()
    return key, text


def test_migrated_adk_tools_give_the_model_the_same_text(adk_python: Path, tmp_path: Path) -> None:
    root = _project(tmp_path)
    flagged = _toolwire(root, "check", ".")
    assert flagged.stdout.count("TW101") == 5, flagged.stdout  # tidy of the LlmAgent too
    before = drive(adk_python, root, "trips", CALLS)

    done = _toolwire(root, "migrate", "--format", "json", ".")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 5, summary
    migrated = (root / "trips.py").read_text(encoding="utf-8")
    assert "@result_tool\nasync def stations(city: str, tool_context: ToolContext)" in migrated
    assert "        FunctionTool(func=stations),\n        FunctionTool(book),\n" in migrated

    after = drive(adk_python, root, "trips", CALLS)
    for call, old, new in zip(CALLS, before, after, strict=True):
        assert new["declarations"] == old["declarations"], call
        assert new["state"] == old["state"], call
        assert new["error"] == old["error"], call
        assert new["artifacts"] == old["artifacts"] == [], call
        if call["args"].get("city") == "paris":  # a returned error string: ADK's error shape
            assert _text(old) == ("result", "Error: unknown city 'paris'")
            assert _text(new) == ("error", "Error: unknown city 'paris'")
        else:
            assert _text(new) == _text(old), call
    assert before[2]["state"] == {"last_city": "rome"}  # the injected ToolContext works
    assert "ValueError: nights must be positive" in after[4]["error"]
    assert _toolwire(root, "migrate", "--check", ".").returncode == 0
    assert "TW101" not in _toolwire(root, "check", ".").stdout


def test_an_artifact_added_after_migrate_lands_in_the_artifact_service(
    adk_python: Path, tmp_path: Path
) -> None:
    root = _project(tmp_path)
    assert _toolwire(root, "migrate", ".").returncode == 0
    path = root / "trips.py"
    source = path.read_text(encoding="utf-8")
    old = 'return ToolResult.text(f"booked {nights} nights in {city}")'
    assert old in source, source
    new = old[:-1] + f", ToolArtifact.text('booking', {MARKER!r}))"
    source = source.replace(old, new).replace(
        "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
    )
    path.write_text(source, encoding="utf-8")
    (seen,) = drive(adk_python, root, "trips", [CALLS[3]])
    assert _text(seen) == ("result", "booked 2 nights in rome")
    assert [a["artifact"] for a in seen["artifacts"]] == [
        {"type": "text", "label": "booking", "data": {"text": MARKER}}
    ]
    assert MARKER not in "".join(seen["events"]) and MARKER not in repr(seen["state"])


def test_init_names_the_framework(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "trips.py").write_text(textwrap.dedent(TRIPS).lstrip(), encoding="utf-8")
    done = _toolwire(root, "init", "--dry-run", ".")
    assert done.returncode == 0, done.stderr
    assert 'presets = ["google-adk"]' in done.stdout, done.stdout


CUSTOM = '''
"""Custom ADK tools: `BaseTool` subclasses with their own declaration and `run_async`."""

from typing import Any

from google.adk.agents import Agent
from google.adk.tools import BaseTool, ToolContext
from google.genai import types

CITIES = {"oslo": 3, "rome": 5}


def _declaration(name: str, description: str) -> types.FunctionDeclaration:
    return types.FunctionDeclaration(
        name=name,
        description=description,
        parameters=types.Schema(
            type=types.Type.OBJECT, properties={"city": types.Schema(type=types.Type.STRING)}
        ),
    )


class Stations(BaseTool):
    """Counts the stations of a city."""

    def __init__(self) -> None:
        super().__init__(name="stations", description="The stations of a city.")

    def _get_declaration(self) -> types.FunctionDeclaration:
        return _declaration(self.name, self.description)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> str:
        city = args["city"]
        if city not in CITIES:
            return f"Error: unknown city {city!r}"
        tool_context.state["last_city"] = city
        return f"{city}: {CITIES[city]} stations"


class Rows(BaseTool):
    """Returns a dict, which ADK sends as it is: not a str, so migrate leaves it."""

    def __init__(self) -> None:
        super().__init__(name="rows", description="The rows of a city.")

    def _get_declaration(self) -> types.FunctionDeclaration:
        return _declaration(self.name, self.description)

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        return {"city": args["city"], "rows": CITIES.get(args["city"], 0)}


agent = Agent(name="trips", model="unused", tools=[Stations(), Rows()])
'''

CUSTOM_CALLS: list[dict[str, Any]] = [
    {"tool": "stations", "args": {"city": "oslo"}},
    {"tool": "stations", "args": {"city": "paris"}},
    {"tool": "rows", "args": {"city": "rome"}},
]


def test_migrated_base_tool_subclasses_give_the_model_the_same_text(
    adk_python: Path, tmp_path: Path
) -> None:
    root = _project(tmp_path)
    path = root / "trips.py"
    path.write_text(textwrap.dedent(CUSTOM).lstrip(), encoding="utf-8")
    flagged = _toolwire(root, "check", ".")
    assert flagged.stdout.count("TW101") == 1, flagged.stdout
    assert "Stations.run_async" in flagged.stdout
    before = drive(adk_python, root, "trips", CUSTOM_CALLS)

    done = _toolwire(root, "migrate", "--format", "json", ".")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 1, summary
    assert [(s["class"], s["reason"]) for s in summary["skipped"]] == [
        ("Rows", "annotated `-> Any`, not `-> str`")
    ]
    migrated = path.read_text(encoding="utf-8")
    assert "class Stations(ResultTool):" in migrated and "class Rows(BaseTool):" in migrated

    after = drive(adk_python, root, "trips", CUSTOM_CALLS)
    for call, old, new in zip(CUSTOM_CALLS, before, after, strict=True):
        assert new["declarations"] == old["declarations"], call
        assert (new["state"], new["error"]) == (old["state"], old["error"]), call
        assert new["artifacts"] == old["artifacts"] == [], call
        if call["args"]["city"] == "paris":  # a returned error string: ADK's error shape
            assert _text(old) == ("result", "Error: unknown city 'paris'")
            assert _text(new) == ("error", "Error: unknown city 'paris'")
        else:
            assert new["response"] == old["response"], call
    assert _text(after[0]) == ("result", "oslo: 3 stations")
    assert after[0]["state"] == {"last_city": "oslo"}
    assert after[2]["response"]["response"] == {"city": "rome", "rows": 5}
    assert "TW101" not in _toolwire(root, "check", ".").stdout

    # An artifact added to the migrated tool: in the artifact service only.
    old = 'return ToolResult.text(f"{city}: {CITIES[city]} stations")'
    assert old in migrated, migrated
    new = old[:-1] + f", ToolArtifact.text('stations', {MARKER!r}))"
    migrated = migrated.replace(old, new).replace(
        "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
    )
    path.write_text(migrated, encoding="utf-8")
    (seen,) = drive(adk_python, root, "trips", CUSTOM_CALLS[:1])
    assert _text(seen) == ("result", "oslo: 3 stations")
    assert [a["artifact"] for a in seen["artifacts"]] == [
        {"type": "text", "label": "stations", "data": {"text": MARKER}}
    ]
    assert MARKER not in "".join(seen["events"]) and MARKER not in repr(seen["state"])
