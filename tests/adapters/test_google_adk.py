"""google-adk adapter: function tools run by ADK's `InMemoryRunner` with a scripted model.

ADK cannot live in the test environment (tests/adapters/adk_env.py), so each test writes an
agent module and runs it with adk_driver.py in the ADK venv. The model reads
`{"result": <content>}`, an error result is `{"error": <content>}` and the run goes on, the
artifacts are in the artifact service only (never in an event, never in session state), and
ADK declares the tool as it declared the plain function.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from adk_env import PIN, drive, installed_version, run_python
from framework_docs import extra_requirements, install_extras, python_blocks

MARKER = "ARTIFACT-ONLY-7d2a"

TOOLS = f'''
from google.adk.agents import Agent
from google.adk.tools import FunctionTool, LongRunningFunctionTool, ToolContext

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.google_adk import result_tool

MARKER = {MARKER!r}


@result_tool
def stations(city: str, limit: int = 2) -> ToolResult:
    """The stations of a city."""
    rows = [["s1", MARKER], ["s2", "ok"]][:limit]
    return ToolResult.text(f"{{city}}: {{len(rows)}} stations",
                           ToolArtifact.table("stations", ["id", "note"], rows))


@result_tool
async def remember(note: str, tool_context: ToolContext) -> ToolResult:
    """Remember a note."""
    tool_context.state["note"] = note
    return ToolResult.text("remembered", ToolArtifact.text("raw", MARKER))


@result_tool
def broken(city: str) -> ToolResult:
    """Always fails."""
    return ToolResult.error(f"no city {{city}}")


@result_tool
def plain(city: str) -> str:
    return city.upper()


@result_tool
def wrong(city: str):
    return 42


@result_tool
async def job(name: str) -> ToolResult:
    """Start a job."""
    return ToolResult.text(f"started {{name}}")


agent = Agent(
    name="a",
    model="unused",
    tools=[stations, FunctionTool(remember), broken, plain, wrong, LongRunningFunctionTool(job)],
)
'''

# The same functions as ADK knew them before: their declarations must not change.
PLAIN = '''
from google.adk.agents import Agent
from google.adk.tools import FunctionTool, ToolContext


def stations(city: str, limit: int = 2) -> str:
    """The stations of a city."""
    return ""


async def remember(note: str, tool_context: ToolContext) -> str:
    """Remember a note."""
    return ""


agent = Agent(name="a", model="unused", tools=[stations, FunctionTool(remember)])
'''


def test_the_venv_holds_the_pinned_adk(adk_python: Path) -> None:
    assert installed_version(adk_python) == PIN.partition("==")[2]


def test_content_to_the_model_and_artifacts_to_the_artifact_service(
    adk_python: Path, tmp_path: Path
) -> None:
    calls = [
        {"tool": "stations", "args": {"city": "Oslo"}},
        {"tool": "remember", "args": {"note": "milk"}},
        {"tool": "plain", "args": {"city": "oslo"}},
        {"tool": "job", "args": {"name": "j1"}},
    ]
    stations, remember, plain, job = drive(adk_python, _write(tmp_path, TOOLS), "agent", calls)
    assert stations["response"] == {"name": "stations", "response": {"result": "Oslo: 2 stations"}}
    assert [a["artifact"] for a in stations["artifacts"]] == [
        {
            "type": "table",
            "label": "stations",
            "data": {"columns": ["id", "note"], "rows": [["s1", MARKER], ["s2", "ok"]]},
        }
    ]
    assert stations["artifacts"][0]["metadata"] == {"toolwire_type": "table", "label": "stations"}
    assert stations["artifacts"][0]["name"].startswith("toolwire-")
    # The ToolContext the function asked for is ADK's: its state write is kept.
    assert remember["response"]["response"] == {"result": "remembered"}
    assert remember["state"] == {"note": "milk"}
    assert [a["artifact"]["data"] for a in remember["artifacts"]] == [{"text": MARKER}]
    assert plain["response"]["response"] == {"result": "OSLO"} and plain["artifacts"] == []
    assert job["response"]["response"] == {"result": "started j1"}
    for seen in (stations, remember, plain, job):
        assert seen["error"] is None
        assert MARKER not in repr(seen["state"]) and MARKER not in "".join(seen["events"])


def test_an_error_result_is_adks_error_response_and_the_run_goes_on(
    adk_python: Path, tmp_path: Path
) -> None:
    calls = [
        {"tool": "broken", "args": {"city": "Atlantis"}},
        {"tool": "wrong", "args": {"city": "x"}},
    ]
    broken, wrong = drive(adk_python, _write(tmp_path, TOOLS), "agent", calls)
    assert broken["error"] is None
    assert broken["response"]["response"] == {"error": "no city Atlantis"}
    # Not a ToolResult: a bug in the tool, which ends the run as a raise does in ADK.
    assert wrong["response"] is None
    assert "TypeError" in wrong["error"] and "wrong" in wrong["error"], wrong["error"]


def test_adk_declares_the_wrapped_function_as_the_plain_one(
    adk_python: Path, tmp_path: Path
) -> None:
    call = [{"tool": "stations", "args": {"city": "Oslo"}}]
    wrapped = drive(adk_python, _write(tmp_path, TOOLS), "agent", call)[0]["declarations"]
    plain = drive(adk_python, _write(tmp_path, PLAIN, "plain"), "plain", call)[0]["declarations"]
    by_name = {d["name"]: d for d in wrapped}
    assert [by_name[d["name"]] for d in plain] == plain
    assert "tool_context" not in repr(by_name["stations"])
    assert by_name["stations"]["description"] == "The stations of a city."


BEFORE = """
from google.adk.agents import Agent


def weather(city: str) -> str:
    \"\"\"Look a city up.\"\"\"
    return f"sunny in {city}"


agent = Agent(name="a", model="unused", tools=[weather])
"""

AFTER = """
from google.adk.agents import Agent

from toolwire import ToolResult
from toolwire.adapters.google_adk import result_tool


@result_tool
def weather(city: str) -> ToolResult:
    \"\"\"Look a city up.\"\"\"
    return ToolResult.text(f"sunny in {city}")


agent = Agent(name="a", model="unused", tools=[weather])
"""

# ADK's own per-run values: event ids, function call ids ("adk-<uuid>"), the invocation
# id and the event times. Everything else an event holds is compared.
_PER_RUN = {"id", "invocation_id", "timestamp"}


def _without_per_run(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_per_run(v) for k, v in value.items() if k not in _PER_RUN}
    if isinstance(value, list):
        return [_without_per_run(item) for item in value]
    return value


def test_a_result_without_artifacts_is_stored_as_the_str_was(
    adk_python: Path, tmp_path: Path
) -> None:
    _write(tmp_path, BEFORE, "before")
    _write(tmp_path, AFTER, "after")
    call = [{"tool": "weather", "args": {"city": "Oslo"}}]
    before, after = (drive(adk_python, tmp_path, name, call)[0] for name in ("before", "after"))
    assert before["response"] == {"name": "weather", "response": {"result": "sunny in Oslo"}}
    # The session (its events, as the session service stores them, and its state), what the
    # model read, and the artifact service: all as before.
    events = [[_without_per_run(json.loads(e)) for e in run["events"]] for run in (before, after)]
    assert len(events[0]) == 4 and events[1] == events[0]
    assert after["artifacts"] == before["artifacts"] == []
    for key in ("response", "declarations", "state", "error"):
        assert after[key] == before[key], key


def _write(directory: Path, source: str, name: str = "agent") -> Path:
    (directory / f"{name}.py").write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return directory


def test_the_docs_page_runs(adk_python: Path, tmp_path: Path) -> None:
    found = python_blocks("google-adk.md")
    assert len(found) == 9  # and the two `toolwire check` examples
    source = ""
    for block in found:  # each block at its own line of the page, for a traceback
        source += "\n" * (block.line - 1 - source.count("\n")) + block.source
    page = tmp_path / "google_adk_page.py"
    page.write_text(source, encoding="utf-8")
    done = run_python(adk_python, str(page))
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_docs_install_command_names_the_extra_the_tests_ran(adk_python: Path) -> None:
    assert install_extras("google-adk.md") == ["google-adk"]
    (requirement,) = extra_requirements("google-adk")
    assert requirement.specifier.contains(installed_version(adk_python))


GUARDED = f'''
import json

from google.adk.agents import Agent

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.google_adk import result_tool

ROWS = [["s1", {MARKER!r}]]


@result_tool
def clean(city: str) -> ToolResult:
    """Stations, the rows kept for the application."""
    return ToolResult.text(f"{{city}}: 1 station", ToolArtifact.table("rows", ["id", "note"], ROWS))


@result_tool
def leaky(city: str) -> ToolResult:
    """Stations, the rows also sent to the model."""
    table = ToolArtifact.table("rows", ["id", "note"], ROWS)
    return ToolResult.text(json.dumps(table.data), table)


agent = Agent(name="a", model="unused", tools=[clean, leaky])
'''

GUARD_RUN = """
import asyncio, json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import toolwire.guard
import adk_driver
guard = toolwire.guard.install(mode="record")
for tool in ("clean", "leaky"):
    asyncio.run(adk_driver.main(sys.argv[1], "guarded", [{"tool": tool, "args": {"city": "Oslo"}}]))
    print(json.dumps([leak.message() for leak in guard.leaks]))
"""


def test_the_guard_sees_what_adk_sends_its_model(adk_python: Path, tmp_path: Path) -> None:
    _write(tmp_path, GUARDED, "guarded")
    driver_dir = str(Path(__file__).parent)
    done = run_python(adk_python, "-c", GUARD_RUN, str(tmp_path), driver_dir)
    assert done.returncode == 0, done.stderr[-3000:]
    after_clean, after_leaky = (json.loads(line) for line in done.stdout.splitlines()[1::2])
    assert after_clean == []
    [leak] = after_leaky
    assert "artifact 'rows' (type 'table')" in leak, leak
    assert "google-adk ScriptedModel.generate_content_async" in leak, leak
