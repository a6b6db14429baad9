"""smolagents' own default tools, migrated with the preset alone and run by a smolagents agent.

The installed smolagents' `default_tools.py` (a real file, nine tool classes) is copied
twice into a scratch project with `presets = ["smolagents"]`, as a project that vendors
it would have it: its relative imports made absolute (`from smolagents.tools import
Tool`). Migrating smolagents' own package in place cannot work: the adapter imports
`smolagents`, which would be importing itself. One copy is migrated by the real
`toolwire migrate`. In a subprocess with a copy first on sys.path,
a `ToolCallingAgent` driven by a scripted model calls the tools that run offline with
the same arguments: the Python interpreter (a result, printed output, a failing
program), the API web search against a local HTTP server (results, a 404) and the web
page visitor. What the model is sent back must be identical, errors must stay errors,
`to_dict()` must behave as before, and the output must parse and be a fixed point.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

DRIVER = r"""
import json, sys, threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

tree, helpers, port, site = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path[:0] = [tree, helpers]
import default_tools
from smolagents import ToolCallingAgent
from default_tools import ApiWebSearchTool, PythonInterpreterTool, VisitWebpageTool
from smolagents.memory import ActionStep
from sa_scripted import ScriptedModel, call

handler = partial(SimpleHTTPRequestHandler, directory=site)
handler.log_message = lambda *a: None
httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{port}"

search = ApiWebSearchTool(endpoint=f"{url}/search.json", api_key="k", rate_limit=None)
missing = ApiWebSearchTool(endpoint=f"{url}/nothing.json", api_key="k", rate_limit=None)
CALLS = [
    (PythonInterpreterTool(), {"code": "6 * 7"}),
    (PythonInterpreterTool(), {"code": "print('hello')\nlen('abc')"}),
    (PythonInterpreterTool(), {"code": "1 / 0"}),
    (PythonInterpreterTool(authorized_imports=["math"]), {"code": "import os"}),
    (search, {"query": "toolwire"}),
    (missing, {"query": "toolwire"}),
    (VisitWebpageTool(), {"url": f"{url}/page.html"}),
]
out = []
for tool, args in CALLS:
    model = ScriptedModel([call(1, tool.name, args), call(2, "final_answer", {"answer": "x"})])
    agent = ToolCallingAgent(tools=[tool], model=model, verbosity_level=0)
    agent.run("go")
    (response,) = model.tool_responses()
    step = next(s for s in agent.memory.steps if isinstance(s, ActionStep))
    try:
        tool.to_dict()
        to_dict = "ok"
    except Exception as exc:
        to_dict = type(exc).__name__
    out.append({"tool": type(tool).__name__, "args": args, "response": response,
                "error": step.error is not None, "to_dict": to_dict,
                "migrated": any(c.__module__.startswith("toolwire") for c in type(tool).__mro__),
                "from": default_tools.__file__})
print(json.dumps(out))
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _drive(tree: Path, site: Path, port: int) -> list[dict[str, object]]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            DRIVER,
            str(tree),
            str(ROOT / "tests" / "adapters"),
            str(port),
            str(site),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        # smolagents prints its set of allowed imports: the same order in both runs.
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data: list[dict[str, object]] = json.loads(done.stdout.splitlines()[-1])
    return data


def test_smolagents_default_tools(tmp_path: Path) -> None:
    smolagents = pytest.importorskip("smolagents")
    source = (Path(smolagents.__file__).parent / "default_tools.py").read_text(encoding="utf-8")
    vendored = source.replace("from .", "from smolagents.")
    assert vendored.count("from smolagents.") == source.count("from .") == 3
    before, after = tmp_path / "before", tmp_path / "after"
    for tree in (before, after):
        tree.mkdir()
        (tree / "default_tools.py").write_text(vendored, encoding="utf-8")
        (tree / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["smolagents"]\n')
    site = tmp_path / "site"
    site.mkdir()
    results = [{"title": "toolwire", "url": "https://example.org/tw", "description": "a linter"}]
    (site / "search.json").write_text(json.dumps({"web": {"results": results}}))
    (site / "page.html").write_text("<html><body><h1>Hi</h1><p>text</p></body></html>")
    original = (after / "default_tools.py").read_bytes()

    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=after, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    migrated = {e["class"] for e in summary["migrated"] if e["path"].endswith("default_tools.py")}
    # Every `forward` annotated `-> str`; FinalAnswerTool (`-> Any`), UserInputTool and
    # SpeechToTextTool (no annotation) are skipped with their reason.
    assert migrated == {
        "PythonInterpreterTool",
        "DuckDuckGoSearchTool",
        "GoogleSearchTool",
        "ApiWebSearchTool",
        "WebSearchTool",
        "VisitWebpageTool",
        "WikipediaSearchTool",
    }
    skipped = {e["class"]: e["reason"] for e in summary["skipped"]}
    assert "-> Any" in skipped["FinalAnswerTool"]
    assert "no return annotation" in skipped["UserInputTool"]
    assert summary["returns_error"] >= 3  # VisitWebpageTool's `except` branches
    migrated_file = after / "default_tools.py"
    assert migrated_file.read_bytes() != original
    compile(migrated_file.read_bytes(), str(migrated_file), "exec")
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout + again.stderr

    port = _free_port()  # the same URLs before and after: error texts quote them
    seen_before = _drive(before, site, port)
    seen_after = _drive(after, site, port)
    assert all(str(s["from"]).startswith(str(before)) for s in seen_before)
    assert all(str(s["from"]).startswith(str(after)) for s in seen_after)
    for one, two in zip(seen_before, seen_after, strict=True):
        assert two["migrated"] and not one["migrated"], two
        assert two["response"] == one["response"], (one, two)
        assert two["error"] == one["error"], (one, two)
        assert two["to_dict"] == one["to_dict"], (one, two)
    assert [s["error"] for s in seen_after] == [False, False, True, True, False, True, True]
