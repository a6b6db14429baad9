"""langchain-community's file-management tools, migrated and run by a LangGraph agent.

langchain-community 0.4.2's `tools/file_management` (seven `BaseTool` subclasses, MIT;
vendored in tests/fixtures/langchain_real with one import path changed) is copied twice
into a scratch project whose only setting is `presets = ["langchain"]`; one copy is
migrated by the real `toolwire migrate`. In a subprocess per copy, a LangGraph agent
(model node + `ToolNode`) driven by a scripted chat model calls every tool, one call per
turn, in a fresh workspace at the same path. The model must be sent the same messages
(LangChain's OpenAI conversion of its last prompt), a tool's "Error: ..." text becomes a
`status="error"` message with the same content, and an artifact a developer then adds
lands in `ToolMessage.artifact` only, never in what the model is sent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import run_driver, vendored_project

pytest.importorskip("langgraph")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "langchain_real" / "langchain_community_file_management"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
MARKER = "ARTIFACT-7f3a"

DRIVER = r"""
import json, sys
from typing import Any
sys.path.insert(0, sys.argv[1])
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.messages import convert_to_openai_messages
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from pydantic import Field
import file_management
from file_management.copy import CopyFileTool
from file_management.delete import DeleteFileTool
from file_management.file_search import FileSearchTool
from file_management.list_dir import ListDirectoryTool
from file_management.move import MoveFileTool
from file_management.read import ReadFileTool
from file_management.write import WriteFileTool

class Scripted(FakeMessagesListChatModel):
    prompts: list = Field(default_factory=list)
    def bind_tools(self, tools, **kwargs):
        return self
    def _generate(self, messages, *args, **kwargs):
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)

ws = sys.argv[2]
kinds = [ReadFileTool, ListDirectoryTool, FileSearchTool, WriteFileTool, CopyFileTool,
         MoveFileTool, DeleteFileTool]
tools = [kind(root_dir=ws) for kind in kinds]
calls = json.loads(sys.argv[3])
turns = [AIMessage("", tool_calls=[{"name": n, "args": a, "id": f"c{i}"}])
         for i, (n, a) in enumerate(calls)]
model = Scripted(responses=[*turns, AIMessage("done")])
graph = StateGraph(MessagesState)
graph.add_node("model", lambda state: {"messages": [model.invoke(state["messages"])]})
graph.add_node("tools", ToolNode(tools))
graph.add_edge(START, "model")
graph.add_conditional_edges("model", tools_condition)
graph.add_edge("tools", "model")
final = graph.compile().invoke({"messages": [HumanMessage("tidy the notes")]})
assert final["messages"][-1].content == "done"
messages = [m for m in final["messages"] if isinstance(m, ToolMessage)]
print(json.dumps({
    "wire": json.dumps(convert_to_openai_messages(model.prompts[-1])),
    "contents": [m.content for m in messages],
    "status": [m.status for m in messages],
    "artifacts": [m.artifact.records() if m.artifact else None for m in messages],
    "migrated": [any(c.__module__.startswith("toolwire") for c in k.__mro__) for k in kinds],
    "from": file_management.__file__,
}))
"""

# (tool, arguments, the content starts "Error"): every tool, its success and error paths.
CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("write_file", {"file_path": "notes/a.txt", "text": "alpha\nbeta\n"}, False),
    ("write_file", {"file_path": "notes/a.txt", "text": "gamma\n", "append": True}, False),
    ("write_file", {"file_path": "../escape.txt", "text": "x"}, True),
    ("read_file", {"file_path": "notes/a.txt"}, False),
    ("read_file", {"file_path": "missing.txt"}, True),
    ("read_file", {"file_path": "notes"}, True),
    ("list_directory", {"dir_path": "notes"}, False),
    ("list_directory", {"dir_path": "empty"}, False),
    ("list_directory", {"dir_path": "nowhere"}, True),
    ("file_search", {"dir_path": ".", "pattern": "*.txt"}, False),
    ("file_search", {"pattern": "*.md"}, False),
    ("copy_file", {"source_path": "notes/a.txt", "destination_path": "b.txt"}, False),
    ("copy_file", {"source_path": "gone.txt", "destination_path": "c.txt"}, True),
    ("move_file", {"source_path": "b.txt", "destination_path": "c.txt"}, False),
    ("move_file", {"source_path": "b.txt", "destination_path": "d.txt"}, True),
    ("move_file", {"source_path": "/etc/hostname", "destination_path": "e.txt"}, True),
    ("file_delete", {"file_path": "c.txt"}, False),
    ("file_delete", {"file_path": "c.txt"}, True),
]
TOOLS = {
    "CopyFileTool",
    "DeleteFileTool",
    "FileSearchTool",
    "ListDirectoryTool",
    "MoveFileTool",
    "ReadFileTool",
    "WriteFileTool",
}


def _copy(root: Path) -> Path:
    return vendored_project(root, "langchain", {"file_management": FIXTURE}, package_init=True)


def _drive(root: Path, ws: Path) -> dict[str, Any]:
    if ws.exists():
        shutil.rmtree(ws)
    (ws / "empty").mkdir(parents=True)  # the same path both times: error texts quote it
    calls = json.dumps([[name, arguments] for name, arguments, _ in CALLS])
    result: dict[str, Any] = run_driver(DRIVER, str(root), str(ws), calls)
    assert str(result["from"]).startswith(str(root))
    return result


def _migrate(root: Path) -> dict[str, Any]:
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def test_langchain_community_file_tools_give_the_model_the_same_text(tmp_path: Path) -> None:
    before_root, after_root = _copy(tmp_path / "before"), _copy(tmp_path / "after")
    summary = _migrate(after_root)
    assert {e["class"] for e in summary["migrated"]} == TOOLS, summary
    assert summary["skipped"] == [] and summary["errors"] == [], summary
    assert summary["files_changed"] == len(TOOLS)  # utils.py holds no tool
    for path in (after_root / "file_management").glob("*.py"):
        compile(path.read_bytes(), str(path), "exec")
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout + again.stderr

    ws = tmp_path / "ws"
    before, after = _drive(before_root, ws), _drive(after_root, ws)
    assert not any(before["migrated"]) and all(after["migrated"])
    assert after["wire"] == before["wire"]  # every message the model was sent
    assert after["contents"] == before["contents"]
    assert before["contents"][3] == "alpha\nbeta\ngamma\n"  # the tools really ran
    assert before["status"] == ["success"] * len(CALLS)
    for (name, _, error), content, status in zip(
        CALLS, after["contents"], after["status"], strict=True
    ):
        assert content.startswith("Error") == error, (name, content)
        assert status == ("error" if error else "success"), (name, content, status)
    assert after["artifacts"] == [None] * len(CALLS)

    # A developer adds an artifact to the migrated read tool: it reaches the run only.
    read = after_root / "file_management" / "read.py"
    text = read.read_text(encoding="utf-8")
    assert text.count("return ToolResult.text(content)") == 1
    read.write_text(
        text.replace(
            "return ToolResult.text(content)",
            f'return ToolResult.text(content, ToolArtifact.text("source", "{MARKER} " + content))',
        ).replace(
            "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
        )
    )
    with_artifact = _drive(after_root, ws)
    assert with_artifact["wire"] == before["wire"]
    assert MARKER not in with_artifact["wire"]
    assert with_artifact["artifacts"][3] == [
        {"type": "text", "label": "source", "data": {"text": f"{MARKER} alpha\nbeta\ngamma\n"}}
    ]
    assert with_artifact["artifacts"][:3] + with_artifact["artifacts"][4:] == [None] * (
        len(CALLS) - 1
    )
