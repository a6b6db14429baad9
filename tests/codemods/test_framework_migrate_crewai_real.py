"""crewai-tools' file tools, migrated with the preset alone and run by a CrewAI agent.

crewai-tools 1.15.30's FileReadTool, DirectoryReadTool, FileWriterTool and
FileCompressorTool with the `security/safe_path.py` they import (MIT; vendored in
tests/fixtures/crewai_real with one import path changed) are copied twice into a scratch
project whose only setting is `presets = ["crewai"]`; one copy is migrated by the real
`toolwire migrate`. In a subprocess per copy and per mode (ReAct text and native tool
calls), a CrewAI `Agent` driven by the scripted LLM of tests/adapters calls every tool on
its success and error paths, in a fresh workspace at the same path. The LLM must be sent
the same requests (messages and tool schemas); a returned "Error: ..." becomes a CrewAI
tool failure with the same text; an artifact a developer then adds reaches the
after-tool-call hook only.
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

pytest.importorskip("crewai")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "crewai_real" / "crewai_tools"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
MARKER = "ARTIFACT-7f3a"

DRIVER = r"""
import json, os, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
os.chdir(sys.argv[3])  # the tools' sandbox is the working directory
from ca_scripted import ScriptedLLM, call, final
from crewai import Agent, Task
from crewai.hooks import register_after_tool_call_hook
from crewai.utilities.string_utils import sanitize_tool_name
import crewai_file_tools
from crewai_file_tools.directory_read_tool import DirectoryReadTool
from crewai_file_tools.file_read_tool import FileReadTool
from crewai_file_tools.file_writer_tool import FileWriterTool
from crewai_file_tools.files_compressor_tool import FileCompressorTool
from toolwire.adapters.crewai import result_of

native = sys.argv[4] == "native"
tools = {"read": FileReadTool(), "list": DirectoryReadTool(), "write": FileWriterTool(),
         "compress": FileCompressorTool()}
calls = json.loads(sys.argv[5])
replies = [call(native, i, sanitize_tool_name(tools[key].name), args)
           for i, (key, args) in enumerate(calls)]
llm = ScriptedLLM(model="scripted", native=native, replies=[*replies, final(native, "done")])
seen = []
register_after_tool_call_hook(lambda context: seen.append(result_of(context)))
agent = Agent(role="clerk", goal="tidy", backstory="b", llm=llm, tools=list(tools.values()))
task = Task(description="Tidy the data folder.", expected_output="a sentence", agent=agent)
answer = str(agent.execute_task(task))
texts = []
for message in llm.last_messages():
    if message["role"] == "tool":
        texts.append(message["content"])
    elif message["role"] == "assistant" and "\nObservation: " in (message["content"] or ""):
        texts.append(message["content"].split("\nObservation: ", 1)[1])
print(json.dumps({
    "answer": answer,
    "requests": llm.requests,
    "observations": texts,
    "failures": [r.failure.message for r in agent.last_tool_failures],
    "artifacts": [[a.to_dict() for a in r.artifacts] if r else None for r in seen],
    "migrated": {k: any(c.__module__.startswith("toolwire") for c in type(t).__mro__)
                 for k, t in tools.items()},
    "from": crewai_file_tools.__file__,
}))
"""

# (tool, arguments, an error after migration): every tool, its success and error paths.
CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("read", {"file_path": "data/a.txt"}, False),
    ("read", {"file_path": "data/a.txt", "start_line": 2, "line_count": 1}, False),
    ("read", {"file_path": "data/none.txt"}, True),
    ("read", {"file_path": "/etc/hostname"}, True),
    ("read", {"file_path": "data/a.txt", "start_line": 10}, True),
    ("list", {"directory": "data/sub"}, False),
    ("write", {"filename": "out.txt", "content": "hello", "directory": "data"}, False),
    ("write", {"filename": "out.txt", "content": "again", "directory": "data"}, False),
    ("write", {"filename": "../../x.txt", "content": "x", "directory": "data"}, True),
    ("write", {"filename": "o2.txt", "content": "x", "overwrite": "maybe"}, True),
    ("compress", {"input_path": "data/sub", "output_path": "sub.zip"}, False),
    ("compress", {"input_path": "data/nothing"}, False),
    ("compress", {"input_path": "data/a.txt", "output_path": "a.rar", "format": "rar"}, False),
    ("compress", {"input_path": "data/a.txt", "output_path": "a.tar", "format": "zip"}, True),
    ("compress", {"input_path": "data/sub", "output_path": "sub.zip", "overwrite": False}, False),
]
MIGRATED = {"FileReadTool", "FileWriterTool", "FileCompressorTool"}


def _copy(root: Path) -> Path:
    return vendored_project(root, "crewai", {"crewai_file_tools": FIXTURE}, package_init=True)


def _drive(root: Path, ws: Path, mode: str) -> dict[str, Any]:
    if ws.exists():
        shutil.rmtree(ws)
    (ws / "data" / "sub").mkdir(parents=True)  # the same path each time: texts quote it
    (ws / "data" / "a.txt").write_text("one\ntwo\nthree\n")
    (ws / "data" / "sub" / "b.txt").write_text("bee\n")
    calls = json.dumps([[key, arguments] for key, arguments, _ in CALLS])
    helpers = ROOT / "tests" / "adapters"
    result: dict[str, Any] = run_driver(DRIVER, str(root), str(helpers), str(ws), mode, calls)
    assert str(result["from"]).startswith(str(root)) and result["answer"] == "done"
    assert len(result["observations"]) == len(CALLS), result["observations"]
    return result


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("crewai_real")
    before, after = _copy(base / "before"), _copy(base / "after")
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=after, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert {e["class"] for e in summary["migrated"]} == MIGRATED, summary
    skipped = {e["class"]: e["reason"] for e in summary["skipped"]}
    assert skipped == {"DirectoryReadTool": "annotated `-> Any`, not `-> str`"}, summary
    assert summary["errors"] == [] and summary["left_for_a_person"] == [], summary
    for path in (after / "crewai_file_tools").glob("*.py"):
        compile(path.read_bytes(), str(path), "exec")
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout + again.stderr
    return before, after


@pytest.mark.parametrize("mode", ["react", "native"])
def test_crewai_tools_file_tools_give_the_model_the_same_text(
    trees: tuple[Path, Path], tmp_path: Path, mode: str
) -> None:
    before_root, after_root = trees
    ws = tmp_path / "ws"
    before, after = _drive(before_root, ws, mode), _drive(after_root, ws, mode)
    assert not any(before["migrated"].values())
    assert {k for k, v in after["migrated"].items() if v} == {"read", "write", "compress"}
    assert after["requests"] == before["requests"]  # every byte the LLM was sent
    assert after["observations"] == before["observations"]
    assert before["observations"][0].startswith("one\ntwo\nthree")  # the tools ran
    assert before["failures"] == []
    errors = [
        text for (_, _, error), text in zip(CALLS, after["observations"], strict=True) if error
    ]
    # ReAct observations may carry CrewAI's periodic tool reminder after the text.
    assert len(after["failures"]) == len(errors), (after["failures"], errors)
    for failure, text in zip(after["failures"], errors, strict=True):
        assert failure and text.startswith(failure), (failure, text)
    assert after["artifacts"] == [[] if key != "list" else None for key, _, _ in CALLS]


def test_an_added_artifact_reaches_the_hook_and_not_the_llm(
    trees: tuple[Path, Path], tmp_path: Path
) -> None:
    before_root, after_root = trees
    edited = tmp_path / "edited"
    shutil.copytree(after_root, edited)
    read = edited / "crewai_file_tools" / "file_read_tool.py"
    text = read.read_text(encoding="utf-8")
    old = "return ToolResult.text(file.read())"
    assert text.count(old) == 1, text
    new = f'return ToolResult.text(data, ToolArtifact.text("source", "{MARKER} " + data))'
    read.write_text(
        text.replace(
            old,
            "data = file.read()\n" + " " * 20 + new,
        ).replace(
            "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
        )
    )
    ws = tmp_path / "ws"
    before, after = _drive(before_root, ws, "native"), _drive(edited, ws, "native")
    assert after["requests"] == before["requests"]
    assert all(MARKER not in request for request in after["requests"])
    assert after["artifacts"][0] == [
        {"type": "text", "label": "source", "data": {"text": f"{MARKER} one\ntwo\nthree\n"}}
    ]
