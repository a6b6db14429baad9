"""The syntax layer never raises on valid Python (bounded, deterministic in CI)."""

from __future__ import annotations

from pathlib import Path

import hypothesmith
from hypothesis import HealthCheck, given, settings

from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source

CONFIG = load_config(Path(__file__).parents[1] / "fixtures" / "pyproject.toml")
# Generated modules rarely name ToolResult, so prefix one to make the flow run on them.
PRELUDE = "from toolwire import ToolResult, ToolArtifact\nr: ToolResult = ToolResult.text('x')\n"


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(hypothesmith.from_grammar())
def test_check_never_raises(source: str) -> None:
    for text in (source, PRELUDE + source):
        findings = check_source(text, "fuzz.py", CONFIG)
        assert all(f.line >= 1 and f.column >= 1 for f in findings)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_node())
def test_check_never_raises_on_node_strategy(source: str) -> None:
    findings = check_source(PRELUDE + source, "fuzz.py", CONFIG)
    assert all(f.code.startswith("TW") for f in findings)
