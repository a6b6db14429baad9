"""The five calls on which the two layers disagreed (issue 11), through both layers.

Each row is checked on its own line with the real `toolwire check` and the real mypy
with the plugin, with only `HumanMessage` configured (as the egress sink it is). Both
layers must give the same codes, and word each finding from its rule's one template.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from frontend_helpers import toolwire_command
from mypy_harness import expected_in, make_project, run_mypy

from toolwire.lint.catalog import catalog

SOURCE = """\
from __future__ import annotations

import _pickle
import logging
from logging import LoggerAdapter

from langchain_core.messages import HumanMessage

from toolwire import ToolResult


def run(result: ToolResult, adapter: LoggerAdapter[logging.Logger], template: str) -> None:
    logging.fatal("%s", result)  # expect: TW204
    adapter.info("%s", result)  # expect: TW204
    _pickle.dumps(result)  # expect: TW203
    template.format_map({"r": result})  # expect: TW202
    HumanMessage("hello")
    HumanMessage(content=result.content)
"""
TABLE = {"egress-sinks": ["langchain_core.messages.HumanMessage:0=content"]}


@pytest.fixture(scope="module")
def found(
    tmp_path_factory: pytest.TempPathFactory, framework_mypy_cache: Path
) -> dict[str, list[tuple[int, str, str]]]:
    import subprocess

    root = tmp_path_factory.mktemp("disagreements")
    config = make_project(root, {"rows.py": SOURCE}, table=TABLE)
    done = subprocess.run(
        [*toolwire_command(), "check", "--format", "json", "--exit-zero", "rows.py"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    syntax = [(f["line"], f["code"], f["message"]) for f in json.loads(done.stdout)["findings"]]
    run = run_mypy(root, ["rows.py"], config=config, cache_dir=framework_mypy_cache)
    assert not run.internal_errors(), run.stdout + run.stderr
    mypy = [(m.line, m.tw, m.text.partition(" ")[2]) for m in run.messages if m.tw]
    return {"syntax": syntax, "mypy": mypy}


@pytest.mark.parametrize("layer", ["syntax", "mypy"])
def test_each_row_is_flagged_as_expected(
    layer: str, found: dict[str, list[tuple[int, str, str]]]
) -> None:
    assert sorted((line, code) for line, code, _ in found[layer]) == sorted(expected_in(SOURCE))


def _template(code: str, text: str) -> bool:
    for template in catalog()[code].messages.values():
        pattern = ".*".join(re.escape(part) for part in re.split(r"\{\w+\}", template))
        if re.fullmatch(pattern, text):
            return True
    return False


@pytest.mark.parametrize("layer", ["syntax", "mypy"])
def test_each_finding_is_worded_from_its_rule(
    layer: str, found: dict[str, list[tuple[int, str, str]]]
) -> None:
    for line, code, text in found[layer]:
        assert _template(code, text), f"{layer} line {line}: {code} {text!r}"
