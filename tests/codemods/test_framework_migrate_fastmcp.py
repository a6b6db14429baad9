"""`toolwire migrate` on fastmcp servers, proved through fastmcp's in-memory `Client`.

Each tool is called before and after the real `toolwire migrate` command: the model reads
the same text, an error return is `is_error` afterwards, artifacts never reach the model,
and what migrate cannot change is listed as skipped with its reason. `toolwire init`
names the framework.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shutil
import subprocess
import sys
import textwrap
from itertools import count
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("fastmcp")

from fastmcp import Client, FastMCP

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
_unique = count()

SERVER = '''
"""A notes server."""

import json

from fastmcp import Context, FastMCP

NOTES = {"todo": "buy milk", "ideas": "a linter for tools"}
mcp = FastMCP("notes")


@mcp.tool
def read_note(name: str) -> str:
    """Read a note by name."""
    if name not in NOTES:
        return f"Error: no note named {name!r}"
    return NOTES[name]


@mcp.tool(description="List the notes.")
async def list_notes(ctx: Context) -> str:
    return json.dumps(sorted(NOTES))


@mcp.tool(output_schema={"type": "object", "properties": {"n": {"type": "integer"}}})
def counted() -> str:
    return '{"n": 2}'


def note_count() -> str:
    """How many notes there are."""
    return str(len(NOTES))


def shout(text: str) -> str:
    """Shout."""
    return text.upper()


mcp.add_tool(note_count)
mcp.add_tool(shout)
LOUD = shout("x")
'''

BUILT = '''
try:
    from fastmcp import FastMCP

    ServerFactory = FastMCP
except ImportError:  # fastmcp is optional
    ServerFactory = None

server = ServerFactory("aliased")


@server.tool()
def ping() -> str:
    """Ping."""
    return "pong"


def create_server() -> FastMCP:
    inner = FastMCP("built")

    @inner.tool
    def hello(name: str) -> str:
        return f"hello {name}"

    def bye(name: str) -> str:
        return f"bye {name}"

    inner.add_tool(bye)
    register(inner)
    return inner


def register(mcp: FastMCP) -> None:
    @mcp.tool
    def echo(text: str) -> str:
        if not text:
            return "Error: nothing to echo"
        return text


def make() -> FastMCP:
    return FastMCP("made")


made = make()


@made.tool
def lost(text: str) -> str:
    return text
'''

# (module, server name or factory, tool, arguments, an error after the migration)
CALLS = [
    ("server", "mcp", "read_note", {"name": "todo"}, False),
    ("server", "mcp", "read_note", {"name": "nope"}, True),
    ("server", "mcp", "list_notes", {}, False),
    ("server", "mcp", "note_count", {}, False),
    ("server", "mcp", "shout", {"text": "hi"}, False),
    ("built", "server", "ping", {}, False),
    ("built", "create_server", "hello", {"name": "Ada"}, False),
    ("built", "create_server", "bye", {"name": "Ada"}, False),
    ("built", "create_server", "echo", {"text": "hi"}, False),
    ("built", "create_server", "echo", {"text": ""}, True),
]


def _load(path: Path) -> ModuleType:
    name = f"{path.stem}_{next(_unique)}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _server(module: ModuleType, name: str) -> FastMCP:
    value = getattr(module, name)
    return value if isinstance(value, FastMCP) else value()


def _call(server: FastMCP, tool: str, arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments, raise_on_error=False)

    return asyncio.run(run())


def _seen(root: Path) -> list[tuple[list[str], bool, Any]]:
    modules = {name: _load(root / f"{name}.py") for name in ("server", "built")}
    seen = []
    for module, server, tool, arguments, _ in CALLS:
        result = _call(_server(modules[module], server), tool, arguments)
        texts = [block.text for block in result.content]
        seen.append((texts, result.is_error, result))
    return seen


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["fastmcp"]\n', encoding="utf-8"
    )
    for name, source in (("server", SERVER), ("built", BUILT)):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return tmp_path


def test_migrated_fastmcp_tools_give_the_model_the_same_text(tmp_path: Path) -> None:
    root = _project(tmp_path)
    before = _seen(root)
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 7, summary
    skipped = {e["method"]: e["reason"] for e in summary["skipped"]}
    assert skipped.keys() == {"counted", "shout", "lost"}, skipped
    assert "`output_schema=`" in skipped["counted"]
    assert "also used" in skipped["shout"]
    assert "`make()`" in skipped["lost"]

    migrated = (root / "built.py").read_text(encoding="utf-8")
    assert "    @result_tool\n    def bye(" in migrated  # add_tool: the adapter on the def
    assert "inner.add_tool(bye)" in migrated
    after = _seen(root)
    for call, (text_before, error_before, _), (text_after, error_after, result) in zip(
        CALLS, before, after, strict=True
    ):
        *_, error = call
        assert text_after == text_before, call
        assert not error_before and error_after == error, call
        # fastmcp's `{"result": <the text>}` of a `-> str` tool, kept (issue 24)
        assert result.structured_content == {"result": text_after[0]}, call
    again = subprocess.run([TOOLWIRE, "migrate", "--check", "."], cwd=root, capture_output=True)
    assert again.returncode == 0, again.stdout


def test_init_names_the_framework(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    (root / "server.py").write_text(textwrap.dedent(SERVER).lstrip(), encoding="utf-8")
    done = subprocess.run(
        [TOOLWIRE, "init", "--dry-run", "."], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "fastmcp" in done.stdout and 'presets = ["fastmcp"]' in done.stdout, done.stdout


# -- call forms and the standalone decorator (issue #24) -----------------------------------

FORMS = '''
from fastmcp import FastMCP
from fastmcp.tools import tool

mcp = FastMCP("forms")


def upper(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


def lower(text: str) -> str:
    return text.lower()


def backwards(text: str) -> str:
    if not text:
        return "Error: nothing to reverse"
    return text[::-1]


@tool
def bracket(text: str) -> str:
    """Marked by the standalone decorator, registered below."""
    return f"<{text}>"


@tool("square")
def square_bracket(text: str) -> str:
    return f"[{text}]"


def schema(text: str) -> str:
    return text


class Notes:
    @tool
    def first(self, text: str) -> str:
        return text[:1]


mcp.add_tool(Notes().first)
mcp.tool(upper)
mcp.tool()(lower)
mcp.tool("reverse")(backwards)
mcp.add_tool(bracket)
mcp.add_tool(square_bracket)
mcp.tool(schema, output_schema={"type": "object", "properties": {}})
'''

# (tool, arguments, an error after the migration)
FORM_CALLS = [
    ("upper", {"text": "hi"}, False),
    ("lower", {"text": "HI"}, False),
    ("reverse", {"text": "abc"}, False),
    ("reverse", {"text": ""}, True),
    ("bracket", {"text": "x"}, False),
    ("square", {"text": "x"}, False),
    ("first", {"text": "abc"}, False),  # skipped: a method
]


def _form_results(path: Path) -> list[Any]:
    server = _load(path).mcp
    return [_call(server, tool, arguments) for tool, arguments, _ in FORM_CALLS]


def test_call_forms_and_the_standalone_tool_decorator_are_migrated(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["fastmcp"]\n', encoding="utf-8"
    )
    path = tmp_path / "forms.py"
    path.write_text(textwrap.dedent(FORMS).lstrip(), encoding="utf-8")
    before = _form_results(path)
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    migrated = {e["method"] for e in summary["migrated"]}
    assert migrated == {"upper", "lower", "backwards", "bracket", "square_bracket"}, summary
    skipped = {e["method"]: e["reason"] for e in summary["skipped"]}
    assert skipped.keys() == {"schema", "first"}, skipped
    assert "`output_schema=`" in skipped["schema"]
    assert skipped["first"].startswith("`@tool` on a method: the bound method is registered")

    text = path.read_text(encoding="utf-8")
    assert "@tool\n@result_tool\ndef bracket(" in text
    assert '@tool("square")\n@result_tool\ndef square_bracket(' in text
    assert "@result_tool\ndef upper(" in text and "mcp.tool()(lower)" in text
    assert "def schema(text: str) -> str:" in text  # left as it was
    after = _form_results(path)
    for call, old, new in zip(FORM_CALLS, before, after, strict=True):
        assert [b.text for b in new.content] == [b.text for b in old.content], call
        assert not old.is_error and new.is_error == call[2], call
        if call[0] != "first":
            assert new.structured_content == old.structured_content, call
            assert "toolwire/artifacts" not in (new.meta or {}), call  # no artifacts
    again = subprocess.run([TOOLWIRE, "migrate", "--check", "."], cwd=tmp_path, capture_output=True)
    assert again.returncode == 0, again.stdout


IMPORTED = {
    "__init__.py": "from .server import mcp\n",
    "server.py": textwrap.dedent(
        """
        from fastmcp import FastMCP

        from notes.helpers import make

        mcp = FastMCP("notes")
        made = make()
        """
    ).lstrip(),
    "helpers.py": textwrap.dedent(
        """
        from fastmcp import FastMCP


        def make() -> FastMCP:
            return FastMCP("made")


        def helper(fn: object) -> object:
            return fn
        """
    ).lstrip(),
    "tools.py": textwrap.dedent(
        """
        from notes.helpers import helper
        from notes.server import made, mcp


        @mcp.tool
        def greet(name: str) -> str:
            if not name:
                return "Error: no name"
            return f"hello {name}"


        @made.tool
        def lost(text: str) -> str:
            return text


        def local(text: str) -> str:
            return text


        helper(local)
        """
    ).lstrip(),
    "more.py": textwrap.dedent(
        """
        from . import mcp as server


        def count(text: str) -> str:
            return str(len(text))


        server.add_tool(count)
        """
    ).lstrip(),
}

IMPORTED_DRIVER = r"""
import asyncio, json, sys

sys.path.insert(0, sys.argv[1])
from fastmcp import Client
import notes.more, notes.tools
from notes import mcp

async def main():
    async with Client(mcp) as client:
        out = []
        for name, arguments in json.loads(sys.argv[2]):
            r = await client.call_tool(name, arguments, raise_on_error=False)
            out.append([[b.text for b in r.content], r.is_error, r.structured_content])
        return out

print(json.dumps(asyncio.run(main())))
"""
IMPORTED_CALLS = [
    ("greet", {"name": "Ada"}, False),
    ("greet", {"name": ""}, True),
    ("count", {"text": "four"}, False),
]


def _imported_calls(root: Path) -> list[Any]:
    calls = json.dumps([[name, arguments] for name, arguments, _ in IMPORTED_CALLS])
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED_DRIVER, str(root), calls], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    result: list[Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_server_imported_from_another_module_of_the_run_is_followed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["fastmcp"]\n', encoding="utf-8"
    )
    package = tmp_path / "notes"
    package.mkdir()
    for name, source in IMPORTED.items():
        (package / name).write_text(source, encoding="utf-8")
    before = _imported_calls(tmp_path)
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert {e["method"] for e in summary["migrated"]} == {"greet", "count"}, summary
    skipped = {e["method"]: e["reason"] for e in summary["skipped"]}
    assert skipped.keys() == {"lost"}, skipped  # `helper(local)` is no tool
    assert skipped["lost"] == (
        "`@made.tool`: server `made` is imported from `notes.server`; the run does not see "
        "it bound there to a call of `FastMCP(...)`: bind it so, or wrap the tools by hand"
    )
    tools = (package / "tools.py").read_text(encoding="utf-8")
    assert "@mcp.tool\n@result_tool\ndef greet(" in tools
    assert "@made.tool\ndef lost(text: str) -> str:" in tools
    after = _imported_calls(tmp_path)
    for (name, _, error), old, new in zip(IMPORTED_CALLS, before, after, strict=True):
        assert new[0] == old[0] and not old[1] and new[1] == error, (name, old, new)
        assert new[2] == old[2], (name, new)  # `{"result": <the text>}`, as before

    # Without the server's module in the run, nothing is guessed from the name.
    (package / "tools.py").write_text(IMPORTED["tools.py"], encoding="utf-8")
    alone = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "notes/tools.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert alone.returncode == 0, alone.stdout
    assert (
        "notes/tools.py:6: greet: `@mcp.tool`: server `mcp` is imported from `notes.server`; "
        "the run does not see it bound there to a call of `FastMCP(...)`"
    ) in alone.stdout, alone.stdout
