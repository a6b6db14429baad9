"""hypothesmith modules and deep nesting through `toolwire init` and the mypy plugin
(bounded, deterministic): no exception, a table that loads, mypy unchanged by the plugin.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolwire.lint.commands.init import build_table, render_table, scan
from toolwire.lint.config import config_from_table

BIN = Path(sys.executable).parent
PRELUDE = (
    "from toolwire import ToolResult\n"
    "class Tool:\n"
    "    def execute(self, text: str) -> str:\n"
    "        return text\n"
)
BOUNDED = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
DEEP = {
    "chain": lambda n: "x = " + " + ".join(["a"] * n),
    "ternary": lambda n: "x = " + "a if b else " * n + "c",
    "not": lambda n: "x = " + "not " * n + "a",
    "call": lambda n: "x = " + "f(" * n + ")" * n,
    "list": lambda n: "x = " + "[" * n + "]" * n,
}


def _compiles(source: str) -> bytes:
    try:
        data = source.encode("utf-8")
        compile(source, "fuzz.py", "exec")
    except (UnicodeEncodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        assume(False)
        raise
    return data


def _init(root: Path) -> dict[str, object]:
    found = scan(root)
    table = render_table(build_table(found))
    data = tomllib.loads(table)["tool"]["toolwire"]
    config_from_table(data)  # the table loads as toolwire loads it
    return data


@BOUNDED
@given(hypothesmith.from_grammar())
def test_init_scan_never_raises(source: str) -> None:
    data = _compiles(PRELUDE + source)
    with tempfile.TemporaryDirectory() as work:
        Path(work, "gen.py").write_bytes(data)
        table = _init(Path(work))
    assert table["tool-methods"] == ["execute"] or "execute" in table["tool-methods"]  # type: ignore[operator]


@pytest.mark.parametrize("shape", sorted(DEEP))
@pytest.mark.parametrize("depth", [100, 1000, 10_000])
def test_init_on_deep_nesting(tmp_path: Path, shape: str, depth: int) -> None:
    (tmp_path / "deep.py").write_text(DEEP[shape](depth) + "\n", encoding="utf-8")
    (tmp_path / "tool.py").write_text(PRELUDE, encoding="utf-8")
    found = scan(tmp_path)
    assert [t.qualname for t in found.tools] == ["tool.Tool.execute"]  # the run goes on
    _init(tmp_path)


def _mypy(root: Path, *names: str, plugin: bool) -> subprocess.CompletedProcess[str]:
    ini = "[mypy]\nplugins = toolwire.mypy\n" if plugin else "[mypy]\n"
    (root / "mypy.ini").write_text(ini, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [str(BIN / "mypy"), "--cache-dir=/dev/null", "--no-error-summary", *names],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def _without_toolwire(out: str) -> list[str]:
    return [line for line in out.splitlines() if " TW" not in line]


@settings(max_examples=1, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(hypothesmith.from_grammar(), min_size=4, max_size=4))
def test_mypy_plugin_over_generated_modules(sources: list[str]) -> None:
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        names = []
        for index, source in enumerate(sources):
            (root / f"gen_{index}.py").write_bytes(_compiles(PRELUDE + source))
            names.append(f"gen_{index}.py")
        bare = _mypy(root, *names, plugin=False)
        done = _mypy(root, *names, plugin=True)
        output = done.stdout + done.stderr
        assert "Traceback" not in output and "INTERNAL ERROR" not in output, output
        assert "toolwire: internal error" not in output, output
        # The plugin adds its findings and changes nothing else.
        assert _without_toolwire(done.stdout) == _without_toolwire(bare.stdout)


@pytest.mark.parametrize("shape", sorted(DEEP))
def test_mypy_plugin_on_deep_nesting(tmp_path: Path, shape: str) -> None:
    source = "from toolwire import ToolResult\na = b = c = ToolResult.text('x')\n"
    # As deep as mypy's own parser takes (it refuses ~100 nested brackets or `not`s).
    depth = 1000 if shape == "chain" else 80
    source += "def f(*args: object) -> object: ...\n" + DEEP[shape](depth) + "\nprint(a)\n"
    (tmp_path / "deep.py").write_text(source, encoding="utf-8")
    bare = _mypy(tmp_path, "deep.py", plugin=False)
    done = _mypy(tmp_path, "deep.py", plugin=True)
    output = done.stdout + done.stderr
    assert "Traceback" not in output and "toolwire: internal error" not in output, output
    assert _without_toolwire(done.stdout) == _without_toolwire(bare.stdout)
    assert "deep.py:5: error: TW204" in done.stdout, output
