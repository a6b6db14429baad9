"""The SDK's FastMCP tool shapes beyond `@mcp.tool()`, migrated and called through MCP.

`mcp.add_tool(fn)`, a server made through a class alias bound in a `try`
(`ServerFactory = FastMCP`), and a server built inside a function with `@srv.tool()` and
`srv.add_tool(fn)` there: the real `toolwire migrate` (config: `presets = ["mcp"]`)
migrates each, and an in-memory client session calls every tool before and after. The
model reads the same text; `toolwire check` reports TW101 on each tool before, none after.
"""

from __future__ import annotations

import asyncio
import json
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from codemod_helpers import tw101_findings
from test_framework_migrate import _load, _migrate

pytest.importorskip("mcp.server.fastmcp")

SERVER = '''
    try:
        from mcp.server.fastmcp import FastMCP

        ServerFactory = FastMCP
    except ImportError:  # pragma: no cover
        ServerFactory = None

    server = ServerFactory("notes")


    @server.tool()
    def read_note(name: str) -> str:
        """Read a note."""
        return f"note {name}"


    def count_notes() -> str:
        """How many notes there are."""
        return "2"


    server.add_tool(count_notes)


    def build():
        built = FastMCP("built")

        @built.tool()
        def shout(text: str) -> str:
            """Shout."""
            return text.upper()

        def whisper(text: str) -> str:
            """Whisper."""
            return text.lower()

        built.add_tool(whisper, name="whisper")
        return built
'''
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("server", "read_note", {"name": "todo"}),
    ("server", "count_notes", {}),
    ("build", "shout", {"text": "Hi"}),
    ("build", "whisper", {"text": "Hi"}),
]


def _call(module: ModuleType, where: str, name: str, args: dict[str, Any]) -> tuple[str, bool]:
    from mcp.shared.memory import create_connected_server_and_client_session as connect

    server = module.server if where == "server" else module.build()

    async def call() -> Any:
        async with connect(server._mcp_server) as session:
            return await session.call_tool(name, args)

    result = asyncio.run(call())
    [block] = result.content
    return block.text, bool(result.isError)


def test_every_fastmcp_shape_is_migrated_and_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["mcp"]\n')
    (tmp_path / "notes.py").write_text(textwrap.dedent(SERVER).lstrip(), encoding="utf-8")
    assert len(tw101_findings(tmp_path)) == 4
    [module] = _load(tmp_path, ["notes.py"])
    before = [_call(module, *call) for call in CALLS]
    assert before[2] == ("HI", False)

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 4, summary
    assert summary["skipped"] == []
    assert len(tw101_findings(tmp_path)) == 0

    [module] = _load(tmp_path, ["notes.py"])
    assert [_call(module, *call) for call in CALLS] == before
    assert _migrate(tmp_path, "--check").returncode == 0
