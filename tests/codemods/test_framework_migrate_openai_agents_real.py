"""`toolwire migrate` on real `@function_tool` tools from PyPI, proved through the Agents SDK.

agents-function-tools 0.6.0 (Apache-2.0; vendored unchanged in
tests/fixtures/openai_agents_real) builds its tools with `@function_tool` inside
`create_function_tools()`. The package is copied twice into a scratch project whose only
setting is `presets = ["openai-agents"]`; one copy is migrated by the real `toolwire
migrate`. In a subprocess per copy, a scripted model (tests/adapters/oa_scripted.py) drives
an `Agent` through `Runner.run` to call each tool once on a fresh workspace with a git
repository (dates fixed, mtimes fixed), granting the approvals the write tools ask for.
The model must be sent the same tool schemas and the same output text for every call,
failures included (the package reports them as `"ok": false` JSON text; a call whose
arguments do not validate is the SDK's own error).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import migrate_summary, run_driver, vendored_project

pytest.importorskip("agents")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "openai_agents_real" / "agents_function_tools"
ADAPTER_TESTS = ROOT / "tests" / "adapters"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

DRIVER = r"""
import asyncio, json, os, subprocess, sys
from pathlib import Path

project, adapters, workspace = sys.argv[1], sys.argv[2], Path(sys.argv[3])
sys.path[:0] = [project, adapters]
os.environ["TW_DEMO"] = "demo value"

from agents import Agent, Runner
from oa_scripted import ScriptedModel, final, tool_call
from function_tools import ToolConfig, create_tools

STAMP = 1_700_000_000
workspace.mkdir()
(workspace / "notes.txt").write_text("first line\nsecond line\n", encoding="utf-8")
(workspace / "docs").mkdir()
(workspace / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
dates = {"GIT_AUTHOR_DATE": "2025-05-15T12:00:00Z", "GIT_COMMITTER_DATE": "2025-05-15T12:00:00Z"}
for args in (
    ["init", "-q", "-b", "main"],
    ["config", "user.name", "Test"],
    ["config", "user.email", "test@example.invalid"],
    ["add", "."],
    ["commit", "-q", "-m", "initial"],
):
    subprocess.run(["git", *args], cwd=workspace, check=True, env={**os.environ, **dates})
for path in [workspace, *workspace.rglob("*")]:
    os.utime(path, (STAMP, STAMP))

bundle = create_tools(
    ToolConfig(
        workspace,
        git_executable="git",
        environment_variables=frozenset({"TW_DEMO"}),
        command_programs={"echo": "/bin/echo"},
    )
)
tools = [*bundle.read, *bundle.write, *bundle.execute]


async def call(name, arguments):
    model = ScriptedModel(tool_call(name, arguments), final("done"))
    agent = Agent(name="files", model=model, tools=tools)
    result = await Runner.run(agent, "go")
    while result.interruptions:  # the write tools ask for approval: grant it
        state = result.to_state()
        for item in result.interruptions:
            state.approve(item)
        result = await Runner.run(agent, state)
    [sent] = [i for i in model.inputs[-1] if i.get("type") == "function_call_output"]
    return sent["output"]


async def main():
    schemas = {t.name: [t.description, t.params_json_schema] for t in tools}
    outputs = [await call(name, arguments) for name, arguments in json.loads(sys.argv[4])]
    return {"tools": schemas, "outputs": outputs}


print(json.dumps(asyncio.run(main())))
"""

NO_BYTES: dict[str, Any] = {"max_bytes": None}
# (tool, arguments, what the package reports: "ok", "failed" (its own JSON), or "sdk"
# (the SDK's error for arguments that do not validate)). Stateful, in this order.
CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("workspace_list", {"path": "docs", "recursive": True, "max_entries": 50}, "ok"),
    ("workspace_read_text", {"path": "notes.txt", **NO_BYTES}, "ok"),
    ("workspace_read_text", {"path": "../outside.txt", **NO_BYTES}, "failed"),
    ("workspace_read_text", {"path": 3}, "sdk"),
    ("workspace_stat", {"path": "notes.txt"}, "ok"),
    ("workspace_find", {"pattern": "*.md", "path": ".", "kind": "file", "max_entries": 10}, "ok"),
    ("workspace_hash_file", {"path": "notes.txt", "algorithm": "sha256"}, "ok"),
    ("workspace_hash_file", {"path": "notes.txt", "algorithm": "md5"}, "failed"),
    ("host_environment_get", {"name": "TW_DEMO"}, "ok"),
    ("host_environment_get", {"name": "HOME"}, "failed"),
    ("command_policy_info", {}, "ok"),
    ("fetch_https_text", {"url": "https://example.invalid/"}, "failed"),
    ("https_request_read", {"method": "GET", "url": "http://127.0.0.1:9/"}, "failed"),
    ("git_status", {"repository": "."}, "ok"),
    ("git_log", {"repository": ".", "max_entries": 5}, "ok"),
    ("git_show", {"revision": "HEAD", "repository": "."}, "ok"),
    ("git_show", {"revision": "--exec=x", "repository": "."}, "failed"),
    (
        "workspace_write_text",
        {"path": "out/new.txt", "content": "hi\n", "overwrite": False, "create_parents": True},
        "ok",
    ),
    ("workspace_create_directory", {"path": "made", "parents": True, "exist_ok": False}, "ok"),
    (
        "workspace_copy_file",
        {"source": "notes.txt", "destination": "made/copy.txt", "overwrite": False}
        | {"create_parents": False},
        "ok",
    ),
    (
        "workspace_move_path",
        {"source": "made/copy.txt", "destination": "made/moved.txt", "overwrite": False}
        | {"create_parents": False},
        "ok",
    ),
    ("git_diff", {"repository": ".", "staged": False, "path": None}, "ok"),
    ("git_stage", {"paths": ["out/new.txt"], "repository": "."}, "ok"),
    ("git_diff", {"repository": ".", "staged": True, "path": None}, "ok"),
    ("zip_create", {"paths": ["docs"], "destination": "docs.zip", "overwrite": False}, "ok"),
    ("zip_list_entries", {"path": "docs.zip", "max_entries": 10}, "ok"),
    ("zip_extract", {"path": "docs.zip", "destination": "unzipped", "overwrite": False}, "ok"),
    ("workspace_delete_path", {"path": "made", "recursive": True}, "ok"),
    ("workspace_delete_path", {"path": "made", "recursive": True}, "failed"),
    (
        "run_local_command",
        {"program": "echo", "args": ["hello"], "cwd": ".", "timeout_seconds": 5},
        "ok",
    ),
    (
        "run_local_command",
        {"program": "rm", "args": ["-rf", "."], "cwd": ".", "timeout_seconds": 5},
        "failed",
    ),
]
# What the environment decides, not the tool: compared by their status only.
VOLATILE = {"host_system_info", "host_current_time", "workspace_disk_usage", "git_commit"}


def _copy(root: Path) -> Path:
    return vendored_project(root, "openai-agents", {"function_tools": FIXTURE})


def _drive(root: Path, calls: list[tuple[str, dict[str, Any], str]]) -> dict[str, Any]:
    plan = json.dumps([[name, arguments] for name, arguments, _ in calls])
    result: dict[str, Any] = run_driver(
        DRIVER,
        str(root),
        str(ADAPTER_TESTS),
        str(root / "ws"),
        plan,
        env={"OPENAI_AGENTS_DISABLE_TRACING": "1", "PATH": "/usr/bin:/bin"},
    )
    return result


def _stable(output: str) -> str:
    """The text without the inode change time, which no test can set."""
    return re.sub(r'"created_at_epoch":[0-9.]+', '"created_at_epoch":0', output)


def _status(output: str) -> str:
    try:
        sent = json.loads(output)
    except ValueError:
        return "sdk"  # not the package's JSON: the SDK's own error message
    return "ok" if sent["ok"] else "failed"


def test_real_function_tools_give_the_model_the_same_text(tmp_path: Path) -> None:
    before_root = _copy(tmp_path / "before")
    after_root = _copy(tmp_path / "after")
    summary = migrate_summary(after_root)
    migrated = {e["method"] for e in summary["migrated"]}
    assert summary["skipped"] == [], summary["skipped"]
    assert summary["changed"] == ["function_tools/openai_tools.py"], summary
    tools = (after_root / "function_tools" / "openai_tools.py").read_text(encoding="utf-8")
    assert "@function_tool" not in tools
    assert tools.count("@result_tool\n") + tools.count("@result_tool(") == len(migrated) == 33
    original = (FIXTURE / "openai_tools.py.txt").read_text(encoding="utf-8")
    approvals = original.count("@function_tool(needs_approval=True)")
    assert tools.count("@result_tool(needs_approval=True)") == approvals == 11  # options kept
    compile(tools, "openai_tools.py", "exec")
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout

    calls = [*CALLS, *((name, {}, "ok") for name in sorted(VOLATILE - {"git_commit"}))]
    calls.append(("git_commit", {"message": "add new", "repository": "."}, "ok"))
    before, after = _drive(before_root, calls), _drive(after_root, calls)
    assert after["tools"] == before["tools"]  # names, descriptions, parameter schemas
    assert set(before["tools"]) == {name for name, *_ in calls}  # every tool is called
    for (name, arguments, status), old, new in zip(
        calls, before["outputs"], after["outputs"], strict=True
    ):
        assert _status(old) == _status(new) == status, (name, arguments, old, new)
        if name not in VOLATILE:
            assert _stable(new) == _stable(old), (name, arguments, old, new)
    assert json.loads(before["outputs"][1])["data"]["content"] == "first line\nsecond line\n"
