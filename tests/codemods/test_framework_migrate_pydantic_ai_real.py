"""pydantic-ai-filesystem-sandbox's toolset, through `toolwire migrate` and a pydantic-ai agent.

pydantic-ai-filesystem-sandbox 0.9.0 (MIT; `sandbox.py` and `toolset.py` vendored
unchanged in tests/fixtures/pydantic_ai_real) is a `FileSystemToolset(AbstractToolset)`:
seven file tools served by its own `get_tools`/`call_tool`, pydantic-ai's documented custom
toolset shape. It is copied twice into a scratch project whose only setting is
`presets = ["pydantic-ai"]`; one copy goes through the real `toolwire migrate`, which must
name the toolset and why it is left as it is (`call_tool` returns `Any`: a `ReadResult`
model, a list, a str) rather than print "0 changed" alone. In a subprocess per copy, an
`Agent` driven by a `FunctionModel` calls every tool on its success and error paths in a
fresh sandbox at the same path: the model must be sent the same parts, and a tool's
exception must still end the run with the same error.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import migrate_summary, run_driver, vendored_project

pytest.importorskip("pydantic_ai")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "pydantic_ai_real" / "pydantic_ai_filesystem_sandbox"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

DRIVER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from pydantic_ai import Agent
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.messages import ToolReturnPart
from pydantic_ai.models.function import FunctionModel
import pydantic_ai_filesystem_sandbox as package
from pydantic_ai_filesystem_sandbox.sandbox import Mount, Sandbox, SandboxConfig
from pydantic_ai_filesystem_sandbox.toolset import FileSystemToolset

ws = sys.argv[2]
toolset = FileSystemToolset(Sandbox(SandboxConfig(mounts=[
    Mount(host_path=f"{ws}/docs", mount_point="/docs", mode="ro"),
    Mount(host_path=f"{ws}/out", mount_point="/out", mode="rw"),
])))
out = []
for name, args in json.loads(sys.argv[3]):
    seen, tools = [], []
    def script(messages, info):
        seen.append(messages)
        tools.append([[t.name, t.description, t.parameters_json_schema]
                      for t in info.function_tools])
        if len(seen) == 1:
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])
    agent = Agent(FunctionModel(script), toolsets=[toolset])
    try:
        result = agent.run_sync("go")
        error = None
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    parts = [p for m in seen[-1] if isinstance(m, ModelRequest) for p in m.parts
             if isinstance(p, ToolReturnPart)]
    out.append({
        "sent": [p.model_response_str() for p in parts] if error is None else None,
        "metadata": [repr(p.metadata) for p in parts],
        "error": error,
        "tools": tools[0],
    })
print(json.dumps({"calls": out, "from": package.__file__}))
"""

# (tool, arguments, the run fails): every tool, its success and error paths.
CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("list_files", {"path": "/"}, False),
    ("list_files", {"path": "/docs", "pattern": "*.txt"}, False),
    ("read_file", {"path": "/docs/a.txt"}, False),
    ("read_file", {"path": "/docs/a.txt", "max_chars": 4, "offset": 2}, False),
    ("read_file", {"path": "/docs/none.txt"}, True),
    ("read_file", {"path": "/etc/hostname"}, True),
    ("write_file", {"path": "/out/n.txt", "content": "alpha beta"}, False),
    ("write_file", {"path": "/docs/x.txt", "content": "x"}, True),
    ("edit_file", {"path": "/out/n.txt", "old_text": "beta", "new_text": "gamma"}, False),
    ("edit_file", {"path": "/out/n.txt", "old_text": "delta", "new_text": "x"}, True),
    ("copy_file", {"source": "/docs/a.txt", "destination": "/out/c.txt"}, False),
    ("move_file", {"source": "/out/c.txt", "destination": "/out/m/c.txt"}, False),
    ("move_file", {"source": "/out/c.txt", "destination": "/out/d.txt"}, True),
    ("delete_file", {"path": "/out/m/c.txt"}, False),
    ("delete_file", {"path": "/docs/a.txt"}, True),
]


def _copy(root: Path) -> Path:
    return vendored_project(
        root, "pydantic-ai", {"pydantic_ai_filesystem_sandbox": FIXTURE}, package_init=True
    )


def _drive(root: Path, ws: Path) -> list[dict[str, Any]]:
    if ws.exists():
        shutil.rmtree(ws)
    (ws / "docs").mkdir(parents=True)  # the same path both times
    (ws / "out").mkdir()
    (ws / "docs" / "a.txt").write_text("hello sandbox\n")
    calls = json.dumps([[name, arguments] for name, arguments, _ in CALLS])
    result: dict[str, Any] = run_driver(DRIVER, str(root), str(ws), calls)
    assert str(result["from"]).startswith(str(root))
    runs: list[dict[str, Any]] = result["calls"]
    return runs


def test_a_custom_pydantic_ai_toolset_is_named_and_behaves_the_same(tmp_path: Path) -> None:
    before_root, after_root = _copy(tmp_path / "before"), _copy(tmp_path / "after")
    original = {p.name: p.read_bytes() for p in (after_root / FIXTURE.name).glob("*.py")}
    summary = migrate_summary(after_root)
    assert summary["migrated"] == [] and summary["errors"] == [], summary
    skipped = {(e["class"], e["method"]): e["reason"] for e in summary["skipped"]}
    assert skipped == {("FileSystemToolset", "call_tool"): "annotated `-> Any`, not `-> str`"}
    text = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True, text=True
    )
    assert text.returncode == 0, text.stdout + text.stderr
    assert "FileSystemToolset" in text.stdout and "-> Any" in text.stdout, text.stdout
    after_files = {p.name: p.read_bytes() for p in (after_root / FIXTURE.name).glob("*.py")}
    assert after_files == original  # nothing it cannot prove is rewritten

    ws = tmp_path / "ws"
    before, after = _drive(before_root, ws), _drive(after_root, ws)
    assert after == before
    for (name, _, fails), run in zip(CALLS, before, strict=True):
        assert (run["error"] is not None) == fails, (name, run)
    assert before[2]["sent"] == [
        json.dumps(
            {
                "content": "hello sandbox\n",
                "truncated": False,
                "total_chars": 14,
                "offset": 0,
                "chars_read": 14,
            },
            separators=(",", ":"),
        )
    ]
    assert {t[0] for t in before[0]["tools"]} == {c[0] for c in CALLS}
