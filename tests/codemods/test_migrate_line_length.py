"""What `toolwire migrate` writes fits the project's line length as black would write it.

The judge is `ruff format --check` at the project's line length (black-compatible; black
itself is not a test dependency), on every file migrate changed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
RUFF = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
ROOT = Path(__file__).resolve().parents[2]


def _migrate(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *options, "."], cwd=root, capture_output=True, text=True
    )


def _formatted(root: Path, files: list[str], length: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RUFF, "format", "--isolated", "--check", "--line-length", str(length), *files],
        cwd=root,
        capture_output=True,
        text=True,
    )


def _changed(output: str) -> list[str]:
    return [
        line.removeprefix("changed: ")
        for line in output.splitlines()
        if line.startswith("changed: ")
    ]


def test_the_example_formatted_at_100_stays_formatted(tmp_path: Path) -> None:
    root = tmp_path / "agent"
    shutil.copytree(ROOT / "examples" / "agent", root)
    with (root / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write("\n[tool.black]\nline-length = 100\n")
    tools = sorted(str(p.relative_to(root)) for p in (root / "agent" / "tools").glob("*.py"))
    assert _formatted(root, tools, 100).returncode == 0  # black-clean to start with

    done = _migrate(root)
    assert done.returncode == 0, done.stderr
    changed = _changed(done.stdout)
    assert "agent/tools/glossary.py" in changed and "agent/tools/weather.py" in changed
    check = _formatted(root, changed, 100)
    assert check.returncode == 0, check.stdout + check.stderr
    weather = (root / "agent" / "tools" / "weather.py").read_text(encoding="utf-8")
    assert "            return ToolResult.text(\n                json.dumps(" in weather
    assert _migrate(root, "--check").returncode == 0  # the split form is a fixed point


LONG = '''
from langchain_core.tools import tool


@tool
def describe(name: str) -> str:
    """Describe a thing."""
    if not name:
        return "no name was given, so there is nothing to describe here at all"
    return name
'''


@pytest.mark.parametrize(
    ("table", "length", "split"), [("", 88, True), ("[tool.ruff]\nline-length = 120\n", 120, False)]
)
def test_a_wrapped_return_is_split_only_past_the_line_length(
    tmp_path: Path, table: str, length: int, split: bool
) -> None:
    pytest.importorskip("langchain_core")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["langchain"]\n' + table, encoding="utf-8"
    )
    (tmp_path / "tools.py").write_text(textwrap.dedent(LONG).lstrip(), encoding="utf-8")
    assert _formatted(tmp_path, ["tools.py"], length).returncode == 0

    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "tools.py").read_text(encoding="utf-8")
    assert ("return ToolResult.text(\n" in text) is split, text
    check = _formatted(tmp_path, ["tools.py"], length)
    assert check.returncode == 0, check.stdout
    assert all(len(line) <= length for line in text.splitlines())


SHAPES = '''
from langchain_core.tools import tool


@tool
def describe(name: str, mode: str) -> str:
    """Describe a thing."""
    if not name: return "no name was given, so there is nothing to describe at all"
    if mode == "x": x = 1; return "the mode x was asked for, which describes nothing"
    return name
'''


def test_a_return_in_a_one_line_suite_or_after_a_semicolon_is_split_too(tmp_path: Path) -> None:
    """The forms the line-text shortcut leaves to the position metadata."""
    pytest.importorskip("langchain_core")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["langchain"]\n', encoding="utf-8"
    )
    (tmp_path / "tools.py").write_text(textwrap.dedent(SHAPES).lstrip(), encoding="utf-8")
    done = _migrate(tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "tools.py").read_text(encoding="utf-8")
    assert "if not name: return ToolResult.text(\n" in text, text
    assert 'x = 1; return ToolResult.text(\n        "the mode' in text, text
    compile(text, "tools.py", "exec")
    assert _migrate(tmp_path, "--check").returncode == 0  # a fixed point


def test_the_line_length_is_the_projects_that_holds_the_resolved_file(tmp_path: Path) -> None:
    """`line_length` reads the pyproject above the file's real place: a linked file takes
    its target's project, a file under a linked folder the folder's target's (the folders
    are resolved once a run, the file itself checked each time)."""
    from toolwire.lint.codemods.line_length import DEFAULT, line_length

    short, plain = tmp_path / "short", tmp_path / "plain"
    (short / "pkg").mkdir(parents=True)
    (plain / "pkg").mkdir(parents=True)
    (short / "pyproject.toml").write_text("[tool.ruff]\nline-length = 41\n", encoding="utf-8")
    (plain / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    (short / "pkg" / "t.py").write_text("x = 1\n", encoding="utf-8")
    (plain / "pkg" / "own.py").write_text("x = 1\n", encoding="utf-8")
    (plain / "pkg" / "linked.py").symlink_to(short / "pkg" / "t.py")
    (plain / "via").symlink_to(short / "pkg")
    assert line_length(plain / "pkg" / "own.py") == DEFAULT
    assert line_length(plain / "pkg" / "linked.py") == 41
    assert line_length(plain / "via" / "t.py") == 41
    assert line_length(plain / "pkg" / "own.py") == DEFAULT
