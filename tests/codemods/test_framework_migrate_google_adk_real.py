"""hindsight-google-adk's `FunctionTool` tools, through `toolwire migrate` and ADK's runner.

hindsight-google-adk 0.1.1 (MIT; vendored unchanged in
tests/fixtures/google_adk_real/hindsight_google_adk) builds three `async def ... -> str`
memory tools inside `create_hindsight_tools()` and hands each to `FunctionTool(fn)`. The
package is copied twice into a scratch project whose only setting is
`presets = ["google-adk"]`; one copy goes through the real `toolwire migrate`. In the ADK
venv (tests/adapters/adk_env.py), adk_driver.py runs an `Agent` holding the package's
tools through `InMemoryRunner` with a scripted model that calls each tool on its success
and failure paths. Only the Hindsight service client is a stand-in (the tools take it as
`client=`; `hindsight_client` itself is an empty module): ADK must declare the same tools,
the model must read the same `{"result": ...}`, and a failing service must still end the
run with the package's `HindsightError`. An artifact added to a migrated tool lands in
ADK's artifact service only, never in the events or the session state.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import migrate_summary, tw101_findings, vendored_project

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "google_adk_real" / "hindsight_google_adk"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
MARKER = "ARTIFACT-ONLY-5b0c"
TOOLS = {"hindsight_retain", "hindsight_recall", "hindsight_reflect"}

# The service client the tools are given (`client=`), and the module they import its
# class from. What each call answers depends on its text only.
CLIENT = """
import sys
sys.path.insert(0, {project!r})
from types import SimpleNamespace

from google.adk.agents import Agent

from hindsight_google_adk import HindsightError, create_hindsight_tools


class Client:
    async def aretain(self, *, bank_id, content, **options):
        if content == "down":
            raise ConnectionError("service unreachable")
        if content == "refused":
            raise HindsightError("bank is read-only")

    async def arecall(self, *, bank_id, query, **options):
        if query == "down":
            raise TimeoutError("no answer in 10s")
        texts = {{"trips": ["Oslo in May", "Rome in June"], "food": ["vegetarian"]}}
        return SimpleNamespace(results=[SimpleNamespace(text=t) for t in texts.get(query, [])])

    async def areflect(self, *, bank_id, query, **options):
        if query == "down":
            raise ConnectionError("service unreachable")
        return SimpleNamespace(text=None if query == "nothing" else f"On {{query}}: likes Oslo")


agent = Agent(
    name="memory",
    model="unused",
    tools=create_hindsight_tools(bank_id="b1", client=Client(), tags=["adk"]),
)
"""

# (tool, arguments, the run fails)
CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("hindsight_retain", {"content": "likes Oslo"}, False),
    ("hindsight_retain", {"content": "down"}, True),
    ("hindsight_retain", {"content": "refused"}, True),
    ("hindsight_recall", {"query": "trips"}, False),
    ("hindsight_recall", {"query": "food"}, False),
    ("hindsight_recall", {"query": "none"}, False),
    ("hindsight_recall", {"query": "down"}, True),
    ("hindsight_reflect", {"query": "travel"}, False),
    ("hindsight_reflect", {"query": "nothing"}, False),
    ("hindsight_reflect", {"query": "down"}, True),
]


@pytest.fixture(scope="module")
def adk_python() -> Path:
    from adk_env import adk_python as built

    return built()


def _copy(root: Path) -> Path:
    return vendored_project(root, "google-adk", {"hindsight_google_adk": FIXTURE})


def _drive(python: Path, root: Path, calls: list[tuple[str, dict[str, Any], bool]]) -> Any:
    """adk_driver.py's record of each call, the agent built by a module outside the
    migrated tree (with `hindsight_client`, the service's client library, a stand-in)."""
    from adk_env import drive

    glue = root.parent / f"{root.name}-glue"
    glue.mkdir(exist_ok=True)
    (glue / "hindsight_client.py").write_text(
        '"""A stand-in: the tools are given their client."""\n\n\nclass Hindsight:\n    pass\n'
    )
    (glue / "memory_agent.py").write_text(textwrap.dedent(CLIENT.format(project=str(root))))
    return drive(python, glue, "memory_agent", [{"tool": n, "args": a} for n, a, _ in calls])


def _text(seen: dict[str, Any]) -> Any:
    return None if seen["response"] is None else seen["response"]["response"]


def test_real_function_tools_give_the_model_the_same_text(adk_python: Path, tmp_path: Path) -> None:
    before_root, after_root = _copy(tmp_path / "before"), _copy(tmp_path / "after")
    summary = migrate_summary(after_root)
    assert summary["skipped"] == [] and summary["errors"] == [], summary
    assert summary["changed"] == ["hindsight_google_adk/tools.py"], summary
    assert {e["method"] for e in summary["migrated"]} == TOOLS
    tools = (after_root / "hindsight_google_adk" / "tools.py").read_text(encoding="utf-8")
    assert tools.count("        @result_tool\n        async def hindsight_") == 3, tools
    assert tools.count("tools.append(FunctionTool(hindsight_") == 3  # the hand-over stays
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout
    assert tw101_findings(after_root) == []

    before = _drive(adk_python, before_root, CALLS)
    after = _drive(adk_python, after_root, CALLS)
    for (name, arguments, fails), old, new in zip(CALLS, before, after, strict=True):
        call = (name, arguments)
        assert new["declarations"] == old["declarations"], call
        assert {d["name"] for d in old["declarations"]} == TOOLS
        assert _text(new) == _text(old), call
        assert new["error"] == old["error"], call
        assert (old["error"] is not None) == fails, (call, old)
        assert new["state"] == old["state"] == {}, call
        assert new["artifacts"] == old["artifacts"] == [], call
    assert _text(before[3]) == {"result": "1. Oslo in May\n2. Rome in June"}
    assert _text(before[5]) == {"result": "No relevant memories found."}
    assert _text(before[8]) == {"result": "No relevant memories found."}
    assert before[1]["error"] == "HindsightError: Retain failed: service unreachable"
    assert before[2]["error"] == "HindsightError: bank is read-only"


def test_an_artifact_added_after_migrate_lands_in_the_artifact_service(
    adk_python: Path, tmp_path: Path
) -> None:
    root = _copy(tmp_path / "after")
    migrate_summary(root)
    path = root / "hindsight_google_adk" / "tools.py"
    source = path.read_text(encoding="utf-8")
    old = 'return ToolResult.text("\\n".join(lines))'
    assert source.count(old) == 1, source
    table = f"ToolArtifact.table('hits', ['marker', 'n'], [[{MARKER!r}, str(len(lines))]])"
    new = old[:-1] + f", {table})"
    source = source.replace(old, new).replace(
        "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
    )
    path.write_text(source, encoding="utf-8")
    (seen,) = _drive(adk_python, root, [("hindsight_recall", {"query": "trips"}, False)])
    assert _text(seen) == {"result": "1. Oslo in May\n2. Rome in June"}
    assert [a["artifact"] for a in seen["artifacts"]] == [
        {
            "type": "table",
            "label": "hits",
            "data": {"columns": ["marker", "n"], "rows": [[MARKER, "2"]]},
        }
    ]
    assert MARKER not in "".join(seen["events"]) and MARKER not in json.dumps(seen["state"])
    assert MARKER not in json.dumps(seen["response"])


def test_check_names_the_tools_migrate_migrates(tmp_path: Path) -> None:
    root = _copy(tmp_path / "tree")
    flagged = {f["message"].split("(")[0].split()[-1] for f in tw101_findings(root)}
    assert flagged == TOOLS
