"""`toolwire migrate` on a real fastmcp server from PyPI, proved through fastmcp's `Client`.

casual-mcp-server-time 1.0.0 (MIT; vendored unchanged in
tests/fixtures/fastmcp_real/casual_mcp_server_time) is copied twice into a scratch project
whose only setting is `presets = ["fastmcp"]`; one copy is migrated by the real `toolwire
migrate`. In a subprocess per copy, fastmcp's in-memory `Client` lists the tools and calls
every one of them. The clock is frozen and `dateparser` (not installed) is stubbed, so the
tools' own code runs and gives the same answer twice. The model must be sent the same text
and the same tool schemas, errors must stay errors, and nothing may go to `meta`.
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

pytest.importorskip("fastmcp")

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "fastmcp_real" / "casual_mcp_server_time"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))

DRIVER = r"""
import asyncio, json, sys, types
from datetime import date, datetime, timezone

sys.path.insert(0, sys.argv[1])
dateparser = types.ModuleType("dateparser")
dateparser.parse = lambda text: {"next friday": datetime(2025, 5, 16)}.get(text.lower())
sys.modules["dateparser"] = dateparser

from fastmcp import Client
from casual_mcp_server_time import server

NOON = datetime(2025, 5, 15, 12, 0, tzinfo=timezone.utc)

class Frozen(datetime):
    @classmethod
    def now(cls, tz=None):
        return NOON.astimezone(tz) if tz is not None else NOON.replace(tzinfo=None)

class Today(date):
    @classmethod
    def today(cls):
        return NOON.date()

server.datetime, server.date = Frozen, Today

async def main():
    async with Client(server.mcp) as client:
        tools = {
            t.name: [t.description, t.inputSchema] for t in await client.list_tools()
        }
        calls = []
        for name, arguments in json.loads(sys.argv[2]):
            r = await client.call_tool(name, arguments, raise_on_error=False)
            calls.append(
                {
                    "text": [b.text for b in r.content],
                    "error": r.is_error,
                    "meta": r.meta,
                    "structured": r.structured_content,
                }
            )
    return {"tools": tools, "calls": calls}

print(json.dumps(asyncio.run(main())))
"""

CALLS: list[tuple[str, dict[str, Any], bool]] = [
    ("current_time", {"timezone": "Asia/Bangkok"}, False),
    ("time_since", {"past_date": "2025-05-01T00:00:00Z"}, False),
    ("add_days", {"days": 3}, False),
    ("subtract_days", {"days": 3}, False),
    ("date_diff", {"start": "2024-01-01", "end": "2025-01-01"}, False),
    ("next_weekday", {"weekday": "Friday"}, False),
    ("next_weekday", {"weekday": "Funday"}, True),
    ("is_leap_year", {"year": 2024}, False),
    ("week_number", {"date_str": "2025-05-15"}, False),
    ("parse_human_date", {"description": "next Friday"}, False),
    ("parse_human_date", {"description": "whenever"}, True),
]
MIGRATED = {
    "current_time",
    "time_since",
    "add_days",
    "subtract_days",
    "date_diff",
    "next_weekday",
    "parse_human_date",
}


def _copy(root: Path) -> Path:
    return vendored_project(root, "fastmcp", {"casual_mcp_server_time": FIXTURE})


def _drive(root: Path) -> dict[str, Any]:
    calls = json.dumps([[name, arguments] for name, arguments, _ in CALLS])
    result: dict[str, Any] = run_driver(DRIVER, str(root), calls)
    return result


def test_a_real_fastmcp_server_gives_the_model_the_same_text(tmp_path: Path) -> None:
    before_root = _copy(tmp_path / "before")
    after_root = _copy(tmp_path / "after")
    summary = migrate_summary(after_root)
    assert {e["method"] for e in summary["migrated"]} == MIGRATED, summary
    skipped = {e["method"]: e["reason"] for e in summary["skipped"]}
    assert skipped == {
        "is_leap_year": "annotated `-> bool`, not `-> str`",
        "week_number": "annotated `-> int`, not `-> str`",
    }, skipped
    server = (after_root / "casual_mcp_server_time" / "server.py").read_text(encoding="utf-8")
    assert server.count("@mcp.tool()\n@result_tool\ndef ") == len(MIGRATED)

    before, after = _drive(before_root), _drive(after_root)
    assert after["tools"] == before["tools"]  # names, descriptions, input schemas
    for (name, _, error), old, new in zip(CALLS, before["calls"], after["calls"], strict=True):
        assert new["text"] == old["text"] and len(new["text"]) == 1, (name, old, new)
        assert old["error"] == new["error"] == error, (name, old, new)
        # the same structured content and meta: a `-> str` tool's (issue 24)
        assert (new["structured"], new["meta"]) == (old["structured"], old["meta"]), name
        if name in MIGRATED and not error:
            assert old["structured"] == {"result": old["text"][0]}, (name, old)
    assert before["calls"][4]["text"] == ["366 days"]  # the tools ran
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after_root, capture_output=True
    )
    assert again.returncode == 0, again.stdout
