"""`toolwire migrate` on real low-level MCP servers from PyPI, proved through an MCP client.

mcp-server-time 2026.1.26 and mcp-server-git 2026.1.14 (vendored unchanged in
tests/fixtures/mcp_real) serve every tool from one `@server.call_tool()` handler on the
SDK's low-level `Server`, which returns content blocks, not a str. They are copied twice
into a scratch project whose only setting is `presets = ["mcp"]`, and one copy is migrated
by the real `toolwire migrate`: it must list each handler as skipped with the reason (not
print "0 changed" and nothing else) and leave every file byte-identical. Then, in a
subprocess per copy, the time server's own `serve()` runs over in-memory streams (in
place of stdio) and a `ClientSession` lists its tools and calls each one: the model gets
the same text, and errors stay errors. The clock is frozen and `tzlocal` (not installed)
is stubbed. GitPython is not installed, so mcp-server-git is migrated, not run.

mcp-server-calculator 0.2.1 uses the SDK's `FastMCP` and `@mcp.tool()`: its one tool is
migrated, and called through an in-memory client session before and after: the same
text, errors still errors, no `_meta`, and the SDK's generated `outputSchema` and
`structuredContent {"result": text}` of a `-> str` tool kept exactly (issue #24).
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

pytest.importorskip("mcp.server.lowlevel")

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "mcp_real"
PACKAGES = ("mcp_server_time", "mcp_server_git")
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
REASON = (
    "`@server.call_tool()`: the low-level `Server` handler returns content blocks for every "
    "tool, not a str, so migrate does not rewrite it: build its `TextContent` from a "
    "`ToolResult`'s `.content` by hand"
)

DRIVER = r"""
import asyncio, json, sys, types
from contextlib import asynccontextmanager
from datetime import datetime, timezone

sys.path.insert(0, sys.argv[1])
tzlocal = types.ModuleType("tzlocal")
tzlocal.get_localzone_name = lambda: "Europe/Warsaw"
sys.modules["tzlocal"] = tzlocal

import anyio
from mcp import ClientSession
from mcp.shared.memory import create_client_server_memory_streams
from mcp_server_time import server

NOON = datetime(2025, 5, 15, 12, 0, tzinfo=timezone.utc)

class Frozen(datetime):
    @classmethod
    def now(cls, tz=None):
        return NOON.astimezone(tz) if tz is not None else NOON.replace(tzinfo=None)

server.datetime = Frozen

async def main():
    async with create_client_server_memory_streams() as (client, served):
        @asynccontextmanager
        async def stdio():  # what `serve()` reads and writes in place of stdin/stdout
            yield served

        server.stdio_server = stdio
        async with anyio.create_task_group() as group:
            group.start_soon(server.serve, None)
            async with ClientSession(*client) as session:
                await session.initialize()
                tools = {
                    t.name: [t.description, t.inputSchema]
                    for t in (await session.list_tools()).tools
                }
                calls = []
                for name, arguments in json.loads(sys.argv[2]):
                    r = await session.call_tool(name, arguments)
                    calls.append(
                        {
                            "text": [b.text for b in r.content],
                            "error": r.isError,
                            "meta": r.meta,
                            "structured": r.structuredContent,
                        }
                    )
            group.cancel_scope.cancel()
    return {"tools": tools, "calls": calls}

print(json.dumps(asyncio.run(main())))
"""

CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("get_current_time", {"timezone": "Asia/Tokyo"}, False),
    ("get_current_time", {"timezone": "Mars/Olympus"}, True),
    (
        "convert_time",
        {"source_timezone": "Europe/London", "time": "16:30", "target_timezone": "Asia/Kolkata"},
        False,
    ),
    (
        "convert_time",
        {"source_timezone": "Europe/London", "time": "25:99", "target_timezone": "UTC"},
        True,
    ),
    ("get_current_time", {}, True),
    ("no_such_tool", {}, True),
]


def _copy(root: Path) -> Path:
    return vendored_project(root, "mcp", {package: FIXTURES / package for package in PACKAGES})


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def _drive(root: Path) -> dict[str, Any]:
    calls = json.dumps([[name, arguments] for name, arguments, _ in CALLS])
    result: dict[str, Any] = run_driver(DRIVER, str(root), calls, timeout=120)
    return result


def _migrate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *args, "."], cwd=root, capture_output=True, text=True
    )


def test_low_level_servers_are_listed_with_why_and_serve_the_same_text(tmp_path: Path) -> None:
    before_root = _copy(tmp_path / "before")
    after_root = _copy(tmp_path / "after")
    done = _migrate(after_root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["migrated"] == [] and summary["files_changed"] == 0, summary
    skipped = {(e["path"], e["method"]): e["reason"] for e in summary["skipped"]}
    assert skipped == {
        ("mcp_server_time/server.py", "call_tool"): REASON,
        ("mcp_server_git/server.py", "call_tool"): REASON,
    }, summary["skipped"]
    # The text report names each handler with its line and why: never "0 changed" alone.
    text = _migrate(after_root, "--check")
    assert text.returncode == 0, text.stdout
    assert "mcp_server_time/server.py:171: call_tool: `@server.call_tool()`" in text.stdout
    assert "mcp_server_git/server.py:382: call_tool: `@server.call_tool()`" in text.stdout
    assert _files(after_root) == _files(before_root)

    before, after = _drive(before_root), _drive(after_root)
    assert sorted(before["tools"]) == ["convert_time", "get_current_time"]
    assert after["tools"] == before["tools"]
    for (name, _, error), old, new in zip(CALLS, before["calls"], after["calls"], strict=True):
        assert new == old, (name, old, new)
        assert old["error"] is error and len(old["text"]) == 1, (name, old)
        assert old["meta"] is None, (name, old)
    now = json.loads(before["calls"][0]["text"][0])
    assert now["datetime"] == "2025-05-15T21:00:00+09:00"  # the tool ran, on the frozen clock
    converted = json.loads(before["calls"][2]["text"][0])
    assert converted["time_difference"] == "+4.5h", converted


CALCULATOR = r"""
import asyncio, json, sys

sys.path.insert(0, sys.argv[1])
from mcp.shared.memory import create_connected_server_and_client_session as connect
from mcp_server_calculator.calculator import mcp

async def main():
    async with connect(mcp._mcp_server) as session:
        [tool] = (await session.list_tools()).tools
        tools = {tool.name: [tool.description, tool.inputSchema]}
        calls = []
        for expression in json.loads(sys.argv[2]):
            r = await session.call_tool("calculate", {"expression": expression})
            calls.append(
                {
                    "text": [b.text for b in r.content],
                    "error": r.isError,
                    "meta": r.meta,
                    "structured": r.structuredContent,
                }
            )
    return {"tools": tools, "output_schema": tool.outputSchema, "calls": calls}

print(json.dumps(asyncio.run(main())))
"""
EXPRESSIONS = [("2^10 + sqrt(16)", False), ("1/0", True), ("os.system('x')", True)]


def _calculator(root: Path) -> None:
    package = root / "mcp_server_calculator"
    package.mkdir(parents=True)
    for source in (FIXTURES / "mcp_server_calculator").glob("*.py.txt"):
        (package / source.name.removesuffix(".txt")).write_bytes(source.read_bytes())
    (root / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["mcp"]\n', encoding="utf-8")


def _drive_calculator(root: Path) -> dict[str, Any]:
    expressions = json.dumps([e for e, _ in EXPRESSIONS])
    result: dict[str, Any] = run_driver(CALCULATOR, str(root), expressions, timeout=120)
    return result


def test_a_real_fastmcp_tool_of_the_sdk_is_migrated_and_reads_the_same(tmp_path: Path) -> None:
    before_root, after_root = tmp_path / "before", tmp_path / "after"
    _calculator(before_root)
    _calculator(after_root)
    done = _migrate(after_root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert [e["method"] for e in summary["migrated"]] == ["calculate"], summary
    assert summary["skipped"] == [], summary
    server = (after_root / "mcp_server_calculator" / "calculator.py").read_text(encoding="utf-8")
    assert (
        "@mcp.tool()\n@result_tool\nasync def calculate(expression: str) -> ToolResult:" in server
    )
    assert _migrate(after_root, "--check").returncode == 0

    before, after = _drive_calculator(before_root), _drive_calculator(after_root)
    assert after["tools"] == before["tools"]  # name, description, input schema
    # The SDK's `-> str` output schema is kept (issue #24).
    assert before["output_schema"] is not None and after["output_schema"] == before["output_schema"]
    for (expression, error), old, new in zip(
        EXPRESSIONS, before["calls"], after["calls"], strict=True
    ):
        assert new["text"] == old["text"] and len(old["text"]) == 1, (expression, old, new)
        assert old["error"] is new["error"] is error, (expression, old, new)
        assert new["meta"] is None and old["meta"] is None, (expression, new)
        assert new["structured"] == old["structured"], (expression, old, new)
        if not error:
            assert old["structured"] == {"result": old["text"][0]}, (expression, old)
    assert before["calls"][0]["text"] == ["1028.0"]  # the tool ran
