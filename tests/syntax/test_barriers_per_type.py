"""Barriers and wire fields are matched on the value's result type, as mypy does: with
the smolagents and openai-agents presets, `output` is the wire field of a
`ToolCallOutputItem` but the run-only raw value of a `ToolOutput` (its artifacts ride
on it), so `step.output` is not cleaned by the other type's field of that name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

TOOLWIRE = [str(Path(sys.executable).parent / "toolwire")]
PYPROJECT = '[tool.toolwire]\npresets = ["smolagents", "openai-agents"]\n'
MODULE = """\
from agents import ToolCallOutputItem
from smolagents import ChatMessage, ToolOutput


def relay(step: ToolOutput, item: ToolCallOutputItem, unknown: object) -> list[object]:
    return [
        ChatMessage("user", step.output),
        ChatMessage("user", item.output),
        ChatMessage("user", step.observation),
        ChatMessage("user", unknown.output),
    ]
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "relay.py").write_text(MODULE)
    return tmp_path


def test_check_reads_barriers_per_result_type(project: Path) -> None:
    run = subprocess.run(
        [*TOOLWIRE, "check", "--format", "json", "relay.py"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stderr
    found = [(f["line"], f["code"]) for f in json.loads(run.stdout)["findings"]]
    # only the run-only field; the other type's wire field, the own wire field and an
    # attribute of a value of unknown origin stay clean
    assert found == [(7, "TW302")]


def test_flake8_reads_barriers_per_result_type(project: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "TW", "relay.py"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stderr
    assert [line.split(":")[1:2] + line.split()[1:2] for line in run.stdout.splitlines()] == [
        ["7", "TW302"]
    ]
