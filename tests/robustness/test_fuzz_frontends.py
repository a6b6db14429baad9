"""hypothesmith modules through the flake8 plugin and the codemods (bounded, deterministic).

`toolwire check` is fuzzed in tests/syntax/test_fuzz.py; this covers the other front-ends.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

import hypothesmith
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolwire.codemods.runner import migrate_paths
from toolwire.config import load_config
from toolwire.flake8_plugin import ToolwireChecker

FIXTURES = Path(__file__).parents[1] / "fixtures"
CONFIG = load_config(FIXTURES / "pyproject.toml")
# Generated modules never name a tool or a ToolResult: a prelude makes the analysis and the
# codemods have work to do on them.
PRELUDE = (
    "from toolwire import ToolResult\n"
    "r: ToolResult = ToolResult.text('x')\n"
    "class Tool:\n"
    "    def execute(self, text: str) -> str:\n"
    "        return text\n"
)
BOUNDED = settings(
    max_examples=50, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def _encodable(source: str) -> bytes:
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:
        assume(False)
        raise
    return data


@BOUNDED
@given(hypothesmith.from_grammar())
def test_flake8_plugin_never_raises(source: str) -> None:
    for text in (source, PRELUDE + source):
        tree = ast.parse(text)
        lines = text.splitlines(keepends=True)
        results = list(ToolwireChecker(tree, "fuzz.py", lines).run())
        for line, column, message, _ in results:
            assert line >= 1 and column >= 0
            assert message[:2] == "TW" and "internal error" not in message, message


def _migrate(path: Path) -> str:
    summary = migrate_paths([str(path)], lambda _: CONFIG, mode="write")
    problems = [e.as_text() for e in summary.all_errors]
    assert not problems, problems
    return path.read_text(encoding="utf-8")


@BOUNDED
@given(hypothesmith.from_grammar())
def test_codemod_never_raises_parses_and_is_idempotent(source: str) -> None:
    data = _encodable(source)
    with tempfile.TemporaryDirectory() as work:
        plain = Path(work) / "plain.py"
        plain.write_bytes(data)
        _migrate(plain)
        if "execute" not in source and "ToolResult" not in source:
            assert plain.read_bytes() == data  # no candidate: not touched, byte for byte
        tooled = Path(work) / "tooled.py"
        tooled.write_bytes(PRELUDE.encode() + data)
        once = _migrate(tooled)
        ast.parse(once)
        assert "ToolResult.text(text)" in once  # the prelude's tool was migrated
        assert _migrate(tooled) == once


@settings(max_examples=1, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(hypothesmith.from_grammar(), min_size=5, max_size=5))
def test_flake8_subprocess_over_generated_files(sources: list[str]) -> None:
    with tempfile.TemporaryDirectory() as work:
        names = []
        for index, source in enumerate(sources):
            path = Path(work) / f"gen_{index}.py"
            path.write_bytes(_encodable(PRELUDE + source))
            names.append(path.name)
        proc = subprocess.run(
            [sys.executable, "-m", "flake8", "-j1", "--select", "TW", *names],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        output = proc.stdout + proc.stderr
        assert "Traceback" not in output and "internal error" not in output, output
        # Every file has the prelude's unmigrated tool: each must be reported.
        for name in names:
            assert f"{name}:4:5: TW101" in proc.stdout, output
