"""Call sites that reach a tool through a dict of tools: listed for a person, never touched.

Through the real `toolwire migrate`: whether `self.tools[name].execute(args)` gets a
ToolResult after the run depends on which tool the key picks, so the call stays as it
is, byte for byte, and is listed with its place and reason, in tool returns and
everywhere else, for each method name the run migrated in some class.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

TOOLS = """
class Echo:
    def execute(self, args: dict[str, str]) -> str:
        return args["text"]
"""
LOOP = """
from app.tools import Echo


class Loop:
    def __init__(self) -> None:
        self.tools = {"echo": Echo()}
        self.cache: dict[str, object] = {}

    def step(self, name: str, args: dict[str, str]) -> str:
        out = self.tools[name].execute(args)
        return out.upper()

    def many(self, names: list[str]) -> list[str]:
        return [self.tools[n].execute({}) for n in names]

    def fetched(self, name: str) -> str:
        return self.tools.get(name).execute({})

    def other(self, key: str) -> object:
        return self.cache[key].refresh()  # not a tool method: not listed
"""
LANGCHAIN = """
from langchain_core.tools import BaseTool


class Search(BaseTool):
    name: str = "search"
    description: str = "Search."

    def _run(self, query: str) -> str:
        return f"results for {query}"


def first_hit(tools: dict[str, BaseTool], name: str, query: str) -> str:
    text = tools[name]._run(query)
    return text.splitlines()[0]
"""


def _project(root: Path, config: str, files: dict[str, str]) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f"[tool.toolwire]\n{config}\n", encoding="utf-8")
    (root / "app" / "__init__.py").write_text("", encoding="utf-8")
    for name, text in files.items():
        (root / "app" / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def _migrate(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *options, "."], cwd=root, capture_output=True, text=True
    )


def test_dict_of_tools_call_sites_are_listed_and_kept(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", "", {"tools.py": TOOLS, "loop.py": LOOP})
    loop = (root / "app" / "loop.py").read_bytes()
    # The text summary lists them with their place (here from a dry run)...
    dry = _migrate(root, "--check")
    assert dry.returncode == 1, dry.stderr
    assert "left for a person: 3 call sites (unchanged):" in dry.stdout
    assert "  app/loop.py:10: execute: `self.tools[...].execute(...)`" in dry.stdout
    # The console example of codemods/tool-returns.md is this run's output.
    doc = (ROOT / "codemods" / "tool-returns.md").read_text(encoding="utf-8")
    example = doc.split("```console\n$ toolwire migrate --check .\n", 1)[1].split("```", 1)[0]
    shown = [line for line in example.splitlines() if line.strip() != "..."]
    assert len(shown) == 4
    for line in shown:
        assert line in dry.stdout.splitlines(), line
    # ... and so does the run that writes.
    done = _migrate(root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 1
    left = summary["left_for_a_person"]
    assert [(e["path"], e["line"], e["method"]) for e in left] == [
        ("app/loop.py", 10, "execute"),
        ("app/loop.py", 14, "execute"),
        ("app/loop.py", 17, "execute"),
    ]
    assert all("dict of tools" in e["reason"] for e in left)
    assert "`self.tools[...].execute(...)`" in left[0]["reason"]
    assert "`self.tools.get(...).execute(...)`" in left[2]["reason"]
    assert (root / "app" / "loop.py").read_bytes() == loop
    assert "ToolResult.text(" in (root / "app" / "tools.py").read_text(encoding="utf-8")


def test_nothing_is_listed_when_no_tool_with_that_method_was_migrated(tmp_path: Path) -> None:
    tools = TOOLS.replace("-> str", "-> int").replace('args["text"]', "1")
    root = _project(tmp_path / "p", "", {"tools.py": tools, "loop.py": LOOP})
    done = _migrate(root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 0
    assert summary["left_for_a_person"] == []


def test_a_framework_tool_reached_through_a_dict(tmp_path: Path) -> None:
    pytest.importorskip("langchain_core")
    root = _project(tmp_path / "p", 'presets = ["langchain"]', {"search.py": LANGCHAIN})
    done = _migrate(root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert [(e["class"], e["method"]) for e in summary["migrated"]] == [("Search", "_run")]
    left = summary["left_for_a_person"]
    assert [(e["path"], e["line"], e["method"]) for e in left] == [("app/search.py", 13, "_run")]
    text = (root / "app" / "search.py").read_text(encoding="utf-8")
    assert "    text = tools[name]._run(query)\n    return text.splitlines()[0]\n" in text
