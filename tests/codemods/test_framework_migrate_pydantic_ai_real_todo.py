"""pydantic-ai-todo's `FunctionToolset` tools, through `toolwire migrate` and a pydantic-ai agent.

pydantic-ai-todo 0.2.7 (MIT; vendored unchanged but for its `__init__.py`, see
tests/fixtures/pydantic_ai_real/pydantic_ai_todo/README.md) builds its tools with
`@toolset.tool(description=...)` on a `FunctionToolset` made inside a factory, one set for
a sync storage and one for an async storage, each with `read_todos` defined in both
branches of an `if enable_subtasks:`. Every tool is `async def ... -> str`. The package is
copied twice into a scratch project whose only setting is `presets = ["pydantic-ai"]`; one
copy goes through the real `toolwire migrate`, which must migrate all 20 definitions. In a
subprocess per copy, an `Agent` driven by a `FunctionModel` calls every tool of the four
toolsets (sync/async storage, with and without subtasks) on their success and failure
paths in one order: the model must be given the same tool definitions and sent the same
text, a tool's exception must still end the run with the same error, and arguments that
do not validate must still be pydantic-ai's retry prompt. An artifact added to a migrated
tool is in the tool return's metadata only: not in what the model reads, not in the
dumped history.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import migrate_summary, run_driver, tw101_findings, vendored_project

pytest.importorskip("pydantic_ai")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "pydantic_ai_real" / "pydantic_ai_todo"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
MARKER = "RUN-ONLY-7d2e"

DRIVER = r"""
import asyncio, itertools, json, sys, uuid
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from pydantic_ai import Agent
from pydantic_ai.messages import ModelRequest, ModelResponse, RetryPromptPart, TextPart
from pydantic_ai.messages import ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel
import pydantic_ai_todo as package
from pydantic_ai_todo import types as todo_types
from pydantic_ai_todo.storage import AsyncMemoryStorage, TodoStorage
from pydantic_ai_todo.toolset import create_todo_toolset

counter = itertools.count(1)
todo_types.uuid4 = lambda: uuid.UUID(int=next(counter) << 96)  # ids 00000001, 00000002, ...
TOOLSETS = {
    "sync": create_todo_toolset(TodoStorage()),
    "sync_sub": create_todo_toolset(TodoStorage(), enable_subtasks=True),
    "async": create_todo_toolset(async_storage=AsyncMemoryStorage()),
    "async_sub": create_todo_toolset(async_storage=AsyncMemoryStorage(), enable_subtasks=True),
    "resolver": create_todo_toolset(storage_resolver=lambda ctx: ctx.deps),
}
out, shown = [], set()
for config, name, args in json.loads(sys.argv[3]):
    seen, tools = [], []
    def script(messages, info):
        seen.append(messages)
        tools.append([[t.name, t.description, t.parameters_json_schema]
                      for t in info.function_tools])
        if len(seen) == 1:
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])
    agent = Agent(FunctionModel(script), toolsets=[TOOLSETS[config]])
    try:
        result = agent.run_sync("go")
        error, stored = None, result.all_messages_json().decode()
    except Exception as exc:
        error, stored = f"{type(exc).__name__}: {exc}", ""
    parts = [p for m in seen[-1] if isinstance(m, ModelRequest) for p in m.parts]
    out.append({
        "sent": [
            [type(p).__name__, getattr(p, "outcome", None),
             p.model_response_str() if isinstance(p, ToolReturnPart) else p.model_response()]
            for p in parts if isinstance(p, ToolReturnPart | RetryPromptPart)
        ],
        "artifacts": [
            [a.to_dict() for a in p.metadata.artifacts]
            for p in parts if isinstance(p, ToolReturnPart) and p.metadata is not None
        ],
        "error": error,
        "marker_stored": sys.argv[4] in stored,
        "tools": None if config in shown else tools[0],
    })
    shown.add(config)
print(json.dumps({"calls": out, "from": package.__file__}))
"""

T1 = {"id": "t1", "content": "Write docs", "active_form": "Writing docs"}
T2 = {"id": "t2", "content": "Ship", "status": "in_progress", "active_form": "Shipping"}
DONE = [{**T1, "status": "completed"}, {**T2, "status": "completed"}]
P1 = {"id": "p1", "content": "Build", "active_form": "Building"}
P2 = {"id": "p2", "content": "Deploy", "active_form": "Deploying"}
# (tool, arguments, the tool return's outcome): "success" (text the package chose, its
# failures included), "retried" (arguments that do not validate: pydantic-ai's own retry
# prompt), "raises" (the run ends with the tool's exception). Stateful, in this order.
PLAIN: list[tuple[str, dict[str, Any], str]] = [
    ("read_todos", {}, "success"),
    ("write_todos", {"todos": [T1, T2]}, "success"),
    ("add_todo", {"content": "Test", "active_form": "Testing"}, "success"),
    ("update_todo_status", {"todo_id": "t1", "status": "completed"}, "success"),
    ("update_todo_status", {"todo_id": "t1", "status": "blocked"}, "success"),
    ("update_todo_status", {"todo_id": "nope", "status": "pending"}, "success"),
    (
        "update_todo_statuses",
        {
            "updates": [
                {"todo_id": "t2", "status": "completed"},
                {"todo_id": "zz", "status": "pending"},
            ]
        },
        "success",
    ),
    ("update_todo_statuses", {"updates": []}, "success"),
    ("update_todo_statuses", {"updates": [{"todo_id": "t2", "status": "bogus"}]}, "retried"),
    ("update_todo_statuses", {"updates": [{"todo_id": "t2", "status": "completed"}]}, "success"),
    ("read_todos", {}, "success"),
    ("remove_todo", {"todo_id": "00000001"}, "success"),
    ("remove_todo", {"todo_id": "00000001"}, "success"),
    ("add_todo", {"content": 3}, "retried"),
    ("write_todos", {"todos": DONE}, "success"),
    ("read_todos", {}, "success"),
]
SUBTASKS: list[tuple[str, dict[str, Any], str]] = [
    ("read_todos", {"hierarchical": True}, "success"),
    ("write_todos", {"todos": [P1, P2]}, "success"),
    (
        "add_subtask",
        {"parent_id": "p1", "content": "Compile", "active_form": "Compiling"},
        "success",
    ),
    ("add_subtask", {"parent_id": "nope", "content": "X", "active_form": "Xing"}, "success"),
    ("set_dependency", {"todo_id": "p2", "depends_on_id": "p1"}, "success"),
    ("set_dependency", {"todo_id": "p2", "depends_on_id": "p1"}, "success"),
    ("set_dependency", {"todo_id": "p1", "depends_on_id": "p2"}, "success"),
    ("set_dependency", {"todo_id": "p1", "depends_on_id": "p1"}, "success"),
    ("set_dependency", {"todo_id": "nope", "depends_on_id": "p1"}, "success"),
    ("set_dependency", {"todo_id": "p1", "depends_on_id": "nope"}, "success"),
    ("update_todo_status", {"todo_id": "p2", "status": "in_progress"}, "success"),
    ("update_todo_statuses", {"updates": [{"todo_id": "p2", "status": "in_progress"}]}, "success"),
    ("get_available_tasks", {}, "success"),
    ("read_todos", {"hierarchical": True}, "success"),
    ("read_todos", {}, "success"),
    ("add_todo", {"content": "Announce", "active_form": "Announcing"}, "success"),
    ("remove_todo", {"todo_id": "00000002"}, "success"),
    (
        "update_todo_statuses",
        {
            "updates": [
                {"todo_id": "p1", "status": "completed"},
                {"todo_id": "00000001", "status": "completed"},
            ]
        },
        "success",
    ),
    ("update_todo_status", {"todo_id": "p2", "status": "completed"}, "success"),
    ("get_available_tasks", {}, "success"),
    ("set_dependency", {"todo_id": "p1"}, "retried"),
    ("read_todos", {}, "success"),
]
CALLS: list[tuple[str, str, dict[str, Any], str]] = [
    *(("sync", *call) for call in PLAIN),
    *(("sync_sub", *call) for call in SUBTASKS),
    *(("async", *call) for call in PLAIN),
    *(("async_sub", *call) for call in SUBTASKS),
    ("resolver", "read_todos", {}, "raises"),  # no deps: the package's resolver fails
]
TOOL_NAMES = {
    "read_todos",
    "write_todos",
    "add_todo",
    "update_todo_status",
    "update_todo_statuses",
    "remove_todo",
    "add_subtask",
    "set_dependency",
    "get_available_tasks",
}


def _copy(root: Path) -> Path:
    return vendored_project(root, "pydantic-ai", {"pydantic_ai_todo": FIXTURE}, package_init=True)


def _stubs(tmp_path: Path) -> Path:
    """`import redis.asyncio` of storage.py: the Redis storage's client, which no test uses
    (the tools run on the in-memory storages), as an empty stand-in module."""
    stubs = tmp_path / "stubs"
    (stubs / "redis").mkdir(parents=True, exist_ok=True)
    for name in ("__init__.py", "asyncio.py"):
        (stubs / "redis" / name).write_text('"""A stand-in: no test uses Redis."""\n')
    return stubs


def _drive(root: Path, stubs: Path, calls: list[tuple[str, str, dict[str, Any], str]]) -> Any:
    plan = json.dumps([[config, name, arguments] for config, name, arguments, _ in calls])
    result = run_driver(DRIVER, str(root), str(stubs), plan, MARKER)
    assert str(result["from"]).startswith(str(root))
    return result["calls"]


def test_real_toolset_tools_are_migrated_and_the_model_reads_the_same(tmp_path: Path) -> None:
    before_root, after_root = _copy(tmp_path / "before"), _copy(tmp_path / "after")
    assert len(tw101_findings(after_root)) == 20
    summary = migrate_summary(after_root)
    assert summary["skipped"] == [] and summary["errors"] == [], summary
    assert summary["changed"] == ["pydantic_ai_todo/toolset.py"], summary
    assert sorted({e["method"] for e in summary["migrated"]}) == sorted(TOOL_NAMES)
    assert len(summary["migrated"]) == 20  # two toolsets, `read_todos` twice in each
    toolset = (after_root / "pydantic_ai_todo" / "toolset.py").read_text(encoding="utf-8")
    assert toolset.count("    @result_tool\n") == 20, toolset
    helper = "def _format_hierarchical(todos: list[Todo]) -> str:"  # no tool: kept
    assert toolset.count(helper) == 2, toolset
    compile(toolset, "toolset.py", "exec")
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout
    assert tw101_findings(after_root) == []

    stubs = _stubs(tmp_path)
    before, after = _drive(before_root, stubs, CALLS), _drive(after_root, stubs, CALLS)
    for (config, name, arguments, outcome), old, new in zip(CALLS, before, after, strict=True):
        call = (config, name, arguments)
        assert new["tools"] == old["tools"], call  # names, descriptions, schemas
        assert new["sent"] == old["sent"], call
        assert new["error"] == old["error"], call
        assert new["artifacts"] == old["artifacts"] == [], call  # metadata None, both
        assert (old["error"] is not None) == (outcome == "raises"), (call, old)
        sent = [] if outcome == "raises" else [["ToolReturnPart", outcome]]
        assert [part[:2] for part in old["sent"]] == sent, (call, old)
    offered = {t[0] for run in before if run["tools"] for t in run["tools"]}
    assert offered == TOOL_NAMES == {name for _, name, _, _ in CALLS}
    assert before[2]["sent"][0][2] == "Added todo 'Test' with ID: 00000001"
    assert before[6]["sent"][0][2].startswith("No changes applied. Errors:\n")
    assert "AttributeError" in before[-1]["error"]


def test_an_artifact_added_after_migrate_stays_in_the_run(tmp_path: Path) -> None:
    before_root, after_root = _copy(tmp_path / "before"), _copy(tmp_path / "after")
    migrate_summary(after_root)
    path = after_root / "pydantic_ai_todo" / "toolset.py"
    source = path.read_text(encoding="utf-8")
    old = "return ToolResult.text(f\"Added todo '{content}' with ID: {new_todo.id}\")"
    assert source.count(old) == 2, source  # the sync and the async toolset
    new = old[:-1] + f", ToolArtifact.text('todo', '{MARKER} ' + new_todo.id))"
    source = source.replace(old, new).replace(
        "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
    )
    path.write_text(source, encoding="utf-8")
    calls = [
        ("sync", "add_todo", {"content": "Test", "active_form": "Testing"}, "success"),
        ("async", "add_todo", {"content": "Test", "active_form": "Testing"}, "success"),
    ]
    stubs = _stubs(tmp_path)
    before, after = _drive(before_root, stubs, calls), _drive(after_root, stubs, calls)
    for old_run, new_run, todo_id in zip(before, after, ("00000001", "00000002"), strict=True):
        text = f"Added todo 'Test' with ID: {todo_id}"
        assert new_run["sent"] == old_run["sent"] == [["ToolReturnPart", "success", text]]
        assert MARKER not in json.dumps(new_run["sent"])
        assert new_run["artifacts"] == [
            [{"type": "text", "label": "todo", "data": {"text": f"{MARKER} {todo_id}"}}]
        ]
        assert old_run["marker_stored"] is new_run["marker_stored"] is False
