"""Issue 23, messages: TW203's advice, `.__dict__` shown as an attribute, and what
`vars(step)` is of, through the real `toolwire check`, flake8 and mypy with the plugin."""

from __future__ import annotations

import json
from pathlib import Path

from frontend_helpers import run_flake8, run_toolwire, text_findings
from mypy_harness import make_project, run_mypy

from toolwire.lint.messages import message

MODULE = """\
import json
from dataclasses import dataclass

from toolwire import ToolResult


@dataclass
class Step:
    result: ToolResult


def dump(step: Step, result: ToolResult) -> list[object]:
    return [
        vars(step),
        result.__dict__,
        json.dumps(result),
    ]
"""


def test_tw203_advice_never_sends_to_flowdrop_to_the_wire() -> None:
    # TW302 flags `to_flowdrop()` at a wire sink: its output holds the artifacts.
    text = message("TW203", "call", call="json.dumps", value="a ToolResult")
    assert "for the wire" not in text
    assert "the wire takes result.content" in text


def test_syntax_layer_shows_dunder_dict_as_an_attribute(tmp_path: Path) -> None:
    make_project(tmp_path, {"steps.py": MODULE})
    done = run_toolwire(["check", "--format", "json", "steps.py"], tmp_path)
    found = {(f["line"], f["message"]) for f in json.loads(done.stdout)["findings"]}
    assert any(line == 15 and m.startswith(".__dict__ of ToolResult result:") for line, m in found)
    assert not any("__dict__()" in m for _, m in found)
    flake8 = run_flake8(["--select", "TW", "steps.py"], tmp_path)
    assert [row[3] for row in text_findings(flake8.stdout) if row[1] == 15] == ["TW203"]
    assert "__dict__()" not in flake8.stdout


def test_mypy_names_what_vars_is_of_and_shows_dunder_dict_as_an_attribute(
    tmp_path: Path,
) -> None:
    config = make_project(tmp_path, {"steps.py": MODULE})
    run = run_mypy(tmp_path, ["steps.py"], config=config)
    texts = {m.line: m.text for m in run.messages if m.tw == "TW203"}
    assert texts[14].startswith("TW203 vars() of a Step, which holds a ToolResult:"), texts
    assert texts[15].startswith("TW203 .__dict__ of a ToolResult:"), texts
    assert texts[16].startswith("TW203 json.dumps() of a ToolResult:"), texts
