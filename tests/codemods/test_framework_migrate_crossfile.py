"""Framework tools across modules: bases elsewhere, `super()` into another file, and bases
kept because a subclass elsewhere is not migrated. Run through the real `toolwire migrate`,
and the migrated package is called through LangChain before and after."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

BASE = '''
from langchain_core.tools import BaseTool


class SearchBase(BaseTool):
    """Shared by the search tools."""

    prefix: str = "hits"

    def _run(self, query: str) -> str:
        if not query:
            return "Error: empty query"
        return f"{self.prefix} for {query}"


class Plain(BaseTool):
    """A base without a tool method of its own."""

    sep: str = ": "
'''

TOOLS = """
from app.base import Plain, SearchBase


class WebSearch(SearchBase):
    name: str = "web_search"
    description: str = "Search the web."

    def _run(self, query: str) -> str:
        return super()._run(query.strip())


class Echo(Plain):
    name: str = "echo"
    description: str = "Echo."

    def _run(self, text: str) -> str:
        return "echo" + self.sep + text
"""

CALLER = """
import json
import sys

sys.path.insert(0, sys.argv[1])
from app.tools import Echo, WebSearch

out = []
for tool, args in [(WebSearch(), {"query": " cats "}), (WebSearch(), {"query": " "}),
                   (Echo(), {"text": "hi"})]:
    message = tool.invoke({"type": "tool_call", "name": tool.name, "args": args, "id": "c"})
    out.append([message.content, message.status])
print(json.dumps(out))
"""


def _project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["langchain"]\n')
    (root / "app").mkdir()
    (root / "app" / "__init__.py").write_text("")
    for name, source in files.items():
        (root / "app" / name).write_text(textwrap.dedent(source).lstrip())


def _migrate(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", *options, "."],
        cwd=root,
        capture_output=True,
        text=True,
    )


def _calls(root: Path) -> list[Any]:
    done = subprocess.run(
        [sys.executable, "-c", CALLER, str(root)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    data: list[Any] = json.loads(done.stdout)
    return data


def test_tools_whose_bases_live_in_another_module(tmp_path: Path) -> None:
    _project(tmp_path, {"base.py": BASE, "tools.py": TOOLS})
    before = _calls(tmp_path)
    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    migrated = sorted(f"{e['class']}.{e['method']}" for e in summary["migrated"])
    assert migrated == ["Echo._run", "SearchBase._run", "WebSearch._run"]
    assert summary["skipped"] == []
    base = (tmp_path / "app" / "base.py").read_text()
    tools = (tmp_path / "app" / "tools.py").read_text()
    assert "class SearchBase(ToolResultTool):" in base
    assert "class Plain(BaseTool):" in base  # no tool method: nothing to wire
    # WebSearch inherits the adapter from SearchBase (migrated in the same run): not twice.
    assert "class WebSearch(SearchBase):" in tools
    # super()._run(...) returns a ToolResult now: returned as it is, not wrapped.
    assert "return super()._run(query.strip())" in tools
    assert "class Echo(ToolResultTool, Plain):" in tools
    after = _calls(tmp_path)
    assert [a[0] for a in after] == [b[0] for b in before]
    assert [a[1] for a in after] == ["success", "error", "success"]
    assert all(b[1] == "success" for b in before)
    again = _migrate(tmp_path, "--check")
    assert again.returncode == 0, again.stdout


def test_a_base_stays_when_a_subclass_elsewhere_keeps_its_tool_method(tmp_path: Path) -> None:
    pairs = TOOLS + textwrap.dedent(
        """

        class Pairs(SearchBase):
            name: str = "pairs"
            description: str = "Pairs."

            def _run(self, query: str) -> tuple[str, list[str]]:
                return query, []
        """
    )
    _project(tmp_path, {"base.py": BASE, "tools.py": pairs})
    original = (tmp_path / "app" / "base.py").read_bytes()
    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    skipped = {f"{e['class']}.{e['method']}": e["reason"] for e in summary["skipped"]}
    assert "app.tools.Pairs" in skipped["SearchBase._run"]
    assert "annotated `-> tuple[str, list[str]]`" in skipped["Pairs._run"]
    # WebSearch returns super()._run(...), still a str: it is wrapped, and gets the adapter.
    assert sorted(f"{e['class']}.{e['method']}" for e in summary["migrated"]) == [
        "Echo._run",
        "WebSearch._run",
    ]
    assert (tmp_path / "app" / "base.py").read_bytes() == original
    tools = (tmp_path / "app" / "tools.py").read_text()
    assert "class WebSearch(ToolResultTool, SearchBase):" in tools
    assert "return ToolResult.text(super()._run(query.strip()))" in tools
    assert "class Pairs(SearchBase):" in tools


def test_super_into_a_module_outside_the_run_is_left_for_a_person(tmp_path: Path) -> None:
    mixed = """
        from langchain_core.tools import BaseTool

        from vendor.search import SearchMixin


        class WebSearch(SearchMixin, BaseTool):
            name: str = "web_search"
            description: str = "Search the web."

            def _run(self, query: str) -> str:
                return super()._run(query.strip())
    """
    _project(tmp_path, {"mixed.py": mixed})
    source = (tmp_path / "app" / "mixed.py").read_bytes()
    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    (event,) = summary["skipped"]
    assert (event["class"], event["method"], event["line"]) == ("WebSearch", "_run", 10)
    assert "returns `super()._run(...)`" in event["reason"]
    assert summary["methods_migrated"] == 0
    assert (tmp_path / "app" / "mixed.py").read_bytes() == source


def test_a_subclass_elsewhere_using_the_inherited_str_keeps_the_base(tmp_path: Path) -> None:
    user = """
        from app.base import SearchBase


        class Shouting(SearchBase):
            name: str = "shouting"
            description: str = "Shout the hits."

            def _arun(self, query: str) -> str:
                return self._run(query).upper()
    """
    _project(tmp_path, {"base.py": BASE, "user.py": user})
    base = (tmp_path / "app" / "base.py").read_bytes()
    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    skipped = {f"{e['class']}.{e['method']}": e["reason"] for e in summary["skipped"]}
    assert "app.user.Shouting" in skipped["SearchBase._run"]
    assert "inherited `_run`" in skipped["SearchBase._run"]
    assert (tmp_path / "app" / "base.py").read_bytes() == base
    # Its own `_arun` still returns text: migrated, and the adapter wraps only that method.
    user_text = (tmp_path / "app" / "user.py").read_text()
    assert "return ToolResult.text(self._run(query).upper())" in user_text
    assert "class Shouting(ToolResultTool, SearchBase):" in user_text
