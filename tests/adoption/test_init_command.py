"""`toolwire init`, through the real console script."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

from adoption_helpers import EXAMPLE, toolwire, write

from toolwire.lint.config import load_config

TOOLS = """\
from toolwire import ToolResult


class Tool:
    def execute(self, arguments: dict[str, str]) -> str:
        raise NotImplementedError


class Echo(Tool):
    def execute(self, arguments: dict[str, str]) -> str:
        return arguments.get("text", "")


class Typed(Tool):
    async def _arun(self, query: str):
        return ToolResult.text(query)


class NotATool:
    def run(self) -> int:
        return 1
"""
CHAT = """\
class Message:
    @classmethod
    def tool_result(cls, call_id: str, content: str) -> "Message":
        return cls(role="tool", tool_call_id=call_id, content=content)


def anthropic_block(call_id: str, text: str) -> dict[str, object]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}
"""
PROJECT = """\
# my project: keep this comment
[project]
name = "demo"   # and this one
version = "1"

[tool.other]
x = 1
"""


def _project(root: Path) -> Path:
    return write(
        root, {"src/app/__init__.py": "", "src/app/tools.py": TOOLS, "src/app/chat.py": CHAT}
    )


def _table(path: Path) -> dict[str, object]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    table = data["tool"]["toolwire"]
    assert isinstance(table, dict)
    return table


def test_fresh_directory_gets_a_pyproject_from_the_facts(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    # The scan is printed...
    assert "src/app/tools.py:5: app.tools.Tool.execute -> str" in done.stdout
    assert "app.tools.Typed._arun -> (ToolResult returned)" in done.stdout
    assert "NotATool" not in done.stdout
    assert "src/app/chat.py:8: type=tool_result:content" in done.stdout
    assert "app.chat.Message.tool_result:content" in done.stdout
    # ...and written, as values and as comments naming where each fact was found.
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith("[tool.toolwire]\n")
    assert "#   app.tools.Echo.execute -> str  (src/app/tools.py:10)" in text
    table = _table(root / "pyproject.toml")
    assert table["tool-methods"] == ["execute", "_arun"]
    assert table["tool-bases"] == ["app.tools.Tool"]
    assert table["presets"] == ["anthropic"]
    # Both functions build a tool message from a parameter: callers are the sinks.
    assert table["wire-sinks"] == [
        "app.chat.Message.tool_result:content",
        "app.chat.anthropic_block:text",
    ]
    # It loads, and the named parameters resolved to their positions from src/.
    config = load_config(root / "pyproject.toml")
    assert [(s.target, s.index) for s in config.wire_sinks] == [
        ("app.chat.Message.tool_result", 1),
        ("app.chat.anthropic_block", 1),
    ]
    assert config.presets == ("anthropic",)


def test_existing_pyproject_is_kept_byte_for_byte(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    original = PROJECT.replace("\n", "\r\n").encode()  # CRLF and no trailing newline
    (root / "pyproject.toml").write_bytes(original.rstrip(b"\r\n"))
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    written = (root / "pyproject.toml").read_bytes()
    assert written.startswith(original.rstrip(b"\r\n") + b"\r\n\r\n[tool.toolwire]\r\n")
    assert b"\n" not in written.replace(b"\r\n", b"")  # line endings kept
    data = tomllib.loads(written.decode())
    assert data["project"] == {"name": "demo", "version": "1"}
    assert data["tool"]["other"] == {"x": 1}
    load_config(root / "pyproject.toml")


def test_existing_table_is_never_clobbered(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    mine = PROJECT + '\n[tool.toolwire]\nseam = "app.loop.Loop.invoke"\n\n[tool.after]\ny = 2\n'
    (root / "pyproject.toml").write_text(mine, encoding="utf-8")
    refused = toolwire("init", cwd=root)
    assert refused.returncode == 2
    assert "already has a [tool.toolwire] table" in refused.stderr
    assert "--force" in refused.stderr
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == mine


def test_force_replaces_only_that_table(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    before = PROJECT + '\n[tool.toolwire]\nseam = "app.loop.Loop.invoke"\n'
    after = '\n# about the next table\n[tool.after]\ny = [\n  "[not a header]",\n]\n'
    (root / "pyproject.toml").write_text(before + after, encoding="utf-8")
    done = toolwire("init", "--force", cwd=root)
    assert done.returncode == 0, done.stderr
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(PROJECT + "\n[tool.toolwire]\n# Written by `toolwire init`")
    assert text.endswith(after)
    assert "seam = " not in text.replace("# seam = ", "")
    assert _table(root / "pyproject.toml")["presets"] == ["anthropic"]
    load_config(root / "pyproject.toml")


def test_force_refuses_a_table_it_cannot_isolate(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    inline = '[tool]\ntoolwire = { seam = "app.loop.Loop.invoke" }\n'
    (root / "pyproject.toml").write_text(inline, encoding="utf-8")
    done = toolwire("init", "--force", cwd=root)
    assert done.returncode == 2
    assert "edit this one by hand" in done.stderr
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == inline


def test_bad_toml_is_an_error_not_a_rewrite(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    (root / "pyproject.toml").write_text("[project\n", encoding="utf-8")
    done = toolwire("init", cwd=root)
    assert done.returncode == 2
    assert "is not valid TOML" in done.stderr
    assert "Traceback" not in done.stderr


def test_empty_directory_gets_defaults_that_load(tmp_path: Path) -> None:
    done = toolwire("init", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "tool methods (0)" in done.stdout
    config = load_config(tmp_path / "pyproject.toml")
    assert config.tool_methods == ("execute",)
    assert not config.has_wire_sinks


def test_dry_run_prints_and_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    done = toolwire("init", "--dry-run", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "\n[tool.toolwire]\n" in done.stdout
    assert 'presets = ["anthropic"]' in done.stdout
    assert not (root / "pyproject.toml").exists()


LANGCHAIN_TOOLS = """\
from langchain_core.tools import BaseTool


class ReadFile(BaseTool):
    name: str = "read_file"
    description: str = "Read a file."

    def _run(self, path: str) -> str:
        return path


class CountLines(ReadFile):
    name: str = "count_lines"
    description: str = "Count lines."

    def _run(self, path: str) -> str:
        return "1"
"""
MCP_SERVER = """\
import json

if True:
    from mcp.server.fastmcp import FastMCP

server = FastMCP("notes")


@server.tool()
def read_note(name: str) -> str:
    return json.dumps(name)
"""
PLAIN_TOOL = """\
class Echo:
    def execute(self, text: str) -> str:
        return text
"""


def test_the_frameworks_imported_become_presets(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "app/__init__.py": "",
            "app/lc.py": LANGCHAIN_TOOLS,
            "app/server.py": MCP_SERVER,
            "app/plain.py": PLAIN_TOOL,
        },
    )
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "frameworks (2):" in done.stdout
    assert "app/lc.py:1: langchain: imports langchain_core.tools" in done.stdout
    assert "app/server.py:4: mcp: imports mcp.server.fastmcp" in done.stdout
    table = _table(root / "pyproject.toml")
    assert table["presets"] == ["langchain", "mcp"]
    # The preset finds the BaseTool subclasses (the subclass through its base in the
    # tree): only the tool method no framework knows is named.
    assert table["tool-methods"] == ["execute"]
    assert table["tool-bases"] == []
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert "#   app.lc.CountLines._run -> str  (app/lc.py:16)  [the framework preset" in text
    assert "#   langchain: imports langchain_core.tools  (app/lc.py:1)" in text
    # What init wrote is what migrate then runs on: every framework tool is wired.
    migrated = toolwire("migrate", "--format", "json", ".", cwd=root)
    assert migrated.returncode == 0, migrated.stderr
    summary = json.loads(migrated.stdout)
    done_methods = {(e["class"], e["method"]) for e in summary["migrated"]}
    assert done_methods == {
        ("ReadFile", "_run"),
        ("CountLines", "_run"),
        ("", "read_note"),
        ("Echo", "execute"),
    }
    assert "ToolResultTool" in (root / "app/lc.py").read_text(encoding="utf-8")
    assert "@result_tool" in (root / "app/server.py").read_text(encoding="utf-8")


def test_a_framework_module_with_no_tool_shape_names_its_preset(tmp_path: Path) -> None:
    # langgraph has no tool shape of its own: the langchain preset declares it as one of the
    # framework's modules, and init reads that declaration.
    graph = "from langgraph.graph import StateGraph\n\nGRAPH = StateGraph(dict)\n"
    root = write(tmp_path / "p", {"app/__init__.py": "", "app/graph.py": graph})
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "app/graph.py:1: langchain: imports langgraph.graph" in done.stdout
    assert _table(root / "pyproject.toml")["presets"] == ["langchain"]


def test_only_real_imports_of_the_framework_count(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            # The project's own `agents` and `mcp` packages are not the frameworks.
            "agents/__init__.py": "def helper() -> None: ...\n",
            "mcp/__init__.py": "",
            "app/__init__.py": "",
            "app/mcp.py": "",
            "app/main.py": (
                '"""Works with langchain_core and smolagents."""\n'
                "# from crewai.tools import BaseTool\n"
                "import agents\n"
                "from mcp import tools\n"
                "from . import mcp\n"
                "from .mcp import server\n"
                'NAME = "from pydantic_ai import Agent"\n'
            ),
            "app/plain.py": PLAIN_TOOL,
        },
    )
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "frameworks (0):" in done.stdout
    table = _table(root / "pyproject.toml")
    assert table["presets"] == []
    assert table["tool-methods"] == ["execute"]


def test_a_framework_only_project_names_no_tool_methods(tmp_path: Path) -> None:
    root = write(
        tmp_path / "p",
        {
            "lc.py": LANGCHAIN_TOOLS.replace(
                "from langchain_core.tools import BaseTool", "import langchain_core.tools as lct"
            ).replace("(BaseTool)", "(lct.BaseTool)")
        },
    )
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    table = _table(root / "pyproject.toml")
    assert table["presets"] == ["langchain"]
    assert table["tool-methods"] == []
    assert load_config(root / "pyproject.toml").tool_methods == ()


def test_init_proposes_the_user_message_builder_and_check_then_finds_the_leak(
    tmp_path: Path,
) -> None:
    # Issue 25: the example's table without its sinks; init must find both message builders,
    # so that the artifact pasted into a user message (agent/debug.py) is reported.
    root = tmp_path / "agent"
    shutil.copytree(EXAMPLE, root)
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    (root / "pyproject.toml").write_text(text.split("[tool.toolwire]")[0], encoding="utf-8")
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "agent/chat.py:34: agent.chat.ChatMessage.user:content" in done.stdout
    table = _table(root / "pyproject.toml")
    assert table["wire-sinks"] == ["agent.chat.ChatMessage.tool_result:content"]
    assert table["egress-sinks"] == ["agent.chat.ChatMessage.user:content"]
    checked = toolwire("check", "--format", "json", "agent/debug.py", cwd=root)
    found = {(f["path"], f["line"], f["code"]) for f in json.loads(checked.stdout)["findings"]}
    assert ("agent/debug.py", 14, "TW302") in found


def test_a_user_message_built_from_a_constant_is_no_sink(tmp_path: Path) -> None:
    chat = (
        "class Message:\n"
        "    def __init__(self, role: str, content: str) -> None: ...\n\n\n"
        "def greeting() -> Message:\n"
        '    return Message(role="user", content="hello")\n\n\n'
        "def system(prompt: str) -> Message:\n"
        '    return Message(role="system", content=prompt)\n'
    )
    root = write(tmp_path / "p", {"app/__init__.py": "", "app/chat.py": chat})
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    assert _table(root / "pyproject.toml")["egress-sinks"] == ["app.chat.system:prompt"]


def test_beside_a_framework_a_generic_method_name_is_no_tool(tmp_path: Path) -> None:
    # langchain-community's shape: API wrappers with `run -> str` beside real BaseTools.
    # Naming `run` would make every wrapper a tool, and its callers hold results.
    wrapper = "class SearchWrapper:\n    def run(self, query: str) -> str:\n        return query\n"
    root = write(tmp_path / "p", {"lc.py": LANGCHAIN_TOOLS, "wrap.py": wrapper})
    done = toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    table = _table(root / "pyproject.toml")
    assert table["presets"] == ["langchain"]
    assert table["tool-methods"] == []
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert "wrap.SearchWrapper.run -> str  (wrap.py:2)  [a generic name beside" in text
    # Without the framework, the same class is the project's own tool, as before.
    (root / "lc.py").unlink()
    (root / "pyproject.toml").unlink()
    assert toolwire("init", cwd=root).returncode == 0
    assert _table(root / "pyproject.toml")["tool-methods"] == ["run"]
