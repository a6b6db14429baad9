"""Findings name the result type where it is known (`ToolMessage m`, `a CallToolResult`),
in both layers, through `toolwire check` and mypy with the plugin."""

from __future__ import annotations

import json
from pathlib import Path

from frontend_helpers import run_toolwire
from mypy_harness import run_mypy

CONFIG = """\
[tool.toolwire]
presets = ["langchain", "mcp"]

[tool.mypy]
plugins = ["toolwire.mypy"]
"""
MODULE = """\
from langchain_core.messages import ToolMessage
from mcp.types import CallToolResult

from toolwire import ToolResult


def shown(message: ToolMessage, called: CallToolResult, result: ToolResult) -> None:
    print(message)
    print(called)
    print(result)
"""
EXPECTED = {8: "ToolMessage", 9: "CallToolResult", 10: "ToolResult"}


def _project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "shown.py").write_text(MODULE, encoding="utf-8")
    return tmp_path


def test_toolwire_check_names_the_result_type(tmp_path: Path) -> None:
    root = _project(tmp_path)
    done = run_toolwire(["check", "--format", "json", "shown.py"], cwd=root)
    findings = json.loads(done.stdout)["findings"]
    named = {f["line"]: f["message"] for f in findings if f["code"] == "TW204"}
    assert set(named) == set(EXPECTED)
    for line, name in EXPECTED.items():
        assert f"of {name} " in named[line], named[line]


def test_the_mypy_plugin_names_the_result_type(tmp_path: Path, framework_mypy_cache: Path) -> None:
    root = _project(tmp_path)
    run = run_mypy(
        root, ["shown.py"], config=root / "pyproject.toml", cache_dir=framework_mypy_cache
    )
    named = {m.line: m.text for m in run.messages if m.tw == "TW204"}
    assert set(named) == set(EXPECTED), run.stdout + run.stderr
    for line, name in EXPECTED.items():
        assert f"of a {name} " in named[line], named[line]
