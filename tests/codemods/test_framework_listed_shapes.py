"""The presets' `[[listed-tools]]` (shapes migrate names and never rewrites): `toolwire
check` flags one annotated `-> str` with the same reason `toolwire migrate` gives for
leaving it, so that neither passes such a tool in silence and neither claims a fix."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from codemod_helpers import tw101_findings
from test_framework_migrate import _migrate

from toolwire.lint.model import load_model

SOURCE = """
    from agents import FunctionTool, RunContextWrapper
    from mcp.server.lowlevel import Server

    server = Server("notes")


    @server.call_tool()
    async def handle(name: str, arguments: dict[str, str]) -> str:
        return f"called {name}"


    async def run_lookup(ctx: RunContextWrapper[None], args: str) -> str:
        return f"looked up {args}"


    def describe() -> str:
        return "a description, not a tool"


    lookup = FunctionTool(
        name="lookup",
        description=describe(),
        params_json_schema={"type": "object", "properties": {}},
        on_invoke_tool=run_lookup,
    )
"""


def _reasons() -> dict[str, str]:
    model = load_model(("mcp", "openai-agents"))
    listed = {shape.framework: shape.reason for shape in model.listed_tools}
    return {"handle": listed["mcp"], "run_lookup": listed["openai-agents"]}


def test_check_flags_a_listed_shape_with_the_reason_migrate_gives(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["mcp", "openai-agents"]\n', encoding="utf-8"
    )
    path = tmp_path / "server.py"
    source = textwrap.dedent(SOURCE).lstrip()
    path.write_text(source, encoding="utf-8")

    found = {f["message"].split("()")[0].removeprefix("tool "): f for f in tw101_findings(tmp_path)}
    assert set(found) == {"handle", "run_lookup"}  # not `describe`: only its value is handed
    for name, reason in _reasons().items():
        assert "migrate it by hand" in found[name]["message"]
        assert reason in found[name]["message"]
        assert not found[name].get("fix"), found[name]

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 0
    skipped = [s["reason"] for s in summary["skipped"]]
    assert all(any(r in s for s in skipped) for r in _reasons().values()), skipped
    assert path.read_text(encoding="utf-8") == source


def test_without_the_presets_a_listed_shape_is_no_tool(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["langchain"]\n', encoding="utf-8"
    )
    (tmp_path / "server.py").write_text(textwrap.dedent(SOURCE).lstrip(), encoding="utf-8")
    assert tw101_findings(tmp_path) == []
