"""A migrated tool's text used as a `str` in another module: listed for review, left as is.

Through the installed `toolwire migrate` command: the tool module is migrated, and the
caller, which has nothing to rewrite, is listed with its places and reasons and keeps
every byte; a second run changes nothing and lists the same places again.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
TOOL = """class SearchTool:
    def execute(self, arguments: dict[str, str]) -> str:
        return "results for " + arguments["q"]
"""
CALLER = """from shop.tools import SearchTool


def run(arguments: dict[str, str]) -> str:
    text = SearchTool().execute(arguments)
    if text.startswith("Error"):
        return "failed"
    return f"got: {text}"


def echo(word: str) -> str:
    return word.upper() if word.startswith("x") else f"{word}"
"""
EXPECTED = [
    ("shop/caller.py", 6, 8, "TW106", "startswith"),
    ("shop/caller.py", 8, 20, "TW202", "f-string"),  # at the interpolated value
]


def _project(root: Path) -> Path:
    (root / "shop").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.toolwire]\ntool-methods = ["execute"]\n')
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "tools.py").write_text(TOOL)
    (root / "shop" / "caller.py").write_text(CALLER)
    return root


def _migrate(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *args, "."], cwd=root, capture_output=True, text=True, timeout=60
    )


def _review(summary: dict[str, Any]) -> list[tuple[str, int, int, str, str]]:
    return [
        (f["path"], f["line"], f["column"], f["code"], f["message"])
        for f in summary["left_for_review"]
    ]


def _check(found: list[tuple[str, int, int, str, str]]) -> None:
    assert [f[:4] for f in found] == [e[:4] for e in EXPECTED]
    for (*_, message), (*_, what) in zip(found, EXPECTED, strict=True):
        assert what in message and "ToolResult text" in message and ".content" in message


def test_a_caller_using_the_text_as_str_is_listed_and_left_as_is(tmp_path: Path) -> None:
    root = _project(tmp_path)
    caller = (root / "shop" / "caller.py").read_bytes()
    done = _migrate(root)
    assert done.returncode == 0, done.stderr
    assert "-> ToolResult:" in (root / "shop" / "tools.py").read_text()
    assert "changed: shop/tools.py" in done.stdout
    assert "changed: shop/caller.py" not in done.stdout
    assert (root / "shop" / "caller.py").read_bytes() == caller
    assert "left for review: 2 places the migration cannot settle (unchanged):" in done.stdout
    listed = [line for line in done.stdout.splitlines() if line.startswith("  shop/")]
    assert len(listed) == len(EXPECTED)
    for line, (path, row, column, code, what) in zip(listed, EXPECTED, strict=True):
        assert line.startswith(f"  {path}:{row}:{column}: {code} ") and what in line
    # `echo` uses a plain str the same way: not listed.
    assert ":13:" not in done.stdout


def test_the_json_summary_lists_place_and_reason(tmp_path: Path) -> None:
    root = _project(tmp_path)
    done = _migrate(root, "--check", "--format", "json")
    assert done.returncode == 1, done.stderr  # the tool module would change
    summary = json.loads(done.stdout)
    assert summary["changed"] == ["shop/tools.py"]
    _check(_review(summary))


def test_a_second_run_changes_nothing_and_lists_the_same_places(tmp_path: Path) -> None:
    root = _project(tmp_path)
    first = _migrate(root, "--format", "json")
    assert first.returncode == 0, first.stderr
    after = {p.name: p.read_bytes() for p in (root / "shop").iterdir()}
    again = _migrate(root, "--format", "json")
    check = _migrate(root, "--check")
    # The places are what the code is, not what the run did: every run lists them, and
    # they never make `--check` fail.
    assert again.returncode == 0 and check.returncode == 0, again.stderr + check.stderr
    summary = json.loads(again.stdout)
    assert summary["files_changed"] == 0 and summary["methods_migrated"] == 0
    assert _review(summary) == _review(json.loads(first.stdout))
    _check(_review(summary))
    assert "left for review: 2 places" in check.stdout
    assert {p.name: p.read_bytes() for p in (root / "shop").iterdir()} == after
