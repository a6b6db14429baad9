"""`toolwire migrate` through the installed console script, as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from codemod_helpers import project

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
CONFIG = {
    "tool-methods": ["execute"],
    "wire-sinks": ["app.chat.ChatMessage.tool_result:content"],
}
TOOL = '''"""A tool."""

from toolwire import ToolResult


class Echo:
    def execute(self, arguments: dict[str, str]) -> str:
        try:
            return arguments["text"]
        except KeyError:
            return "Error: no text"


class Maybe:
    def execute(self, arguments: dict[str, str]) -> str | None:
        return None
'''
CALLER = """from app.chat import ChatMessage
from tools import Echo


def reply(call_id: str, tool: Echo) -> ChatMessage:
    result = tool.execute({})
    return ChatMessage.tool_result(call_id, result)
"""
PLAIN = "# no candidates here, and not even valid Python: never parsed\ndef (:\n"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return project(tmp_path, CONFIG, {"tools.py": TOOL, "caller.py": CALLER, "plain.py": PLAIN})


def test_write_then_nothing_left_to_do(app: Path) -> None:
    before = snapshot(app)
    done = run(".", cwd=app)
    assert done.returncode == 0, done.stderr
    tools = (app / "tools.py").read_text(encoding="utf-8")
    assert "-> ToolResult:" in tools and 'return ToolResult.text(arguments["text"])' in tools
    assert 'return ToolResult.error("Error: no text")' in tools
    assert "-> str | None:" in tools  # skipped
    assert "changed: tools.py" in done.stdout
    assert "1 method migrated (1 return wrapped as text, 1 as error)" in done.stdout
    assert "tools.py:15: Maybe.execute: annotated `-> str | None`, not `-> str`" in done.stdout
    after = snapshot(app)
    assert after["plain.py"] == before["plain.py"]
    assert after["app/chat.py"] == before["app/chat.py"]
    again = run(".", cwd=app)
    assert again.returncode == 0 and "0 changed" in again.stdout
    assert snapshot(app) == after


def test_the_caller_moves_to_content_once_the_tool_is_migrated(app: Path) -> None:
    done = run(".", cwd=app)
    assert done.returncode == 0, done.stderr
    assert "ChatMessage.tool_result(call_id, result.content)" in (app / "caller.py").read_text()
    assert "1 sink payload and" in done.stdout


def test_diff_and_check_write_nothing(app: Path) -> None:
    before = snapshot(app)
    diff = run("--diff", ".", cwd=app)
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.startswith("--- a/")
    assert "+    def execute(self, arguments: dict[str, str]) -> ToolResult:" in diff.stdout
    assert "\x1b[" not in diff.stdout  # no colour in a pipe
    assert "would change: tools.py" in diff.stderr  # the patch owns stdout
    check = run("--check", ".", cwd=app)
    assert check.returncode == 1
    assert snapshot(app) == before
    assert run(".", cwd=app).returncode == 0
    assert run("--check", ".", cwd=app).returncode == 0


def test_json_summary(app: Path) -> None:
    out = run("--check", "--format", "json", ".", cwd=app)
    data = json.loads(out.stdout)
    assert data["files_changed"] == 2 and data["methods_migrated"] == 1
    assert (data["returns_text"], data["returns_error"]) == (1, 1)
    assert data["files_scanned"] == len(snapshot(app))
    assert data["skipped"] == [
        {
            "path": "tools.py",
            "line": 15,
            "class": "Maybe",
            "method": "execute",
            "reason": "annotated `-> str | None`, not `-> str`",
        }
    ]
    assert out.returncode == 1


def test_bad_input_is_one_tw000_line_and_the_run_goes_on(app: Path) -> None:
    (app / "broken.py").write_text("class T:\n    def execute(self) -> str:\n        return (\n")
    (app / "latin.py").write_bytes(
        b"class T:\n    def execute(self) -> str:\n        return '\xff'\n"
    )
    out = run(".", cwd=app)
    assert out.returncode == 2
    lines = [line for line in out.stderr.splitlines() if "TW000" in line]
    assert len(lines) == 2, out.stderr
    assert any(line.startswith("broken.py:") and "cannot parse" in line for line in lines)
    assert any(line.startswith("latin.py:3:") and "cannot decode" in line for line in lines)
    assert "Traceback" not in out.stderr
    assert "-> ToolResult:" in (app / "tools.py").read_text()  # the others were migrated
    assert "plain.py" not in out.stderr  # no candidate: never parsed, never reported


def test_read_only_file_is_reported_and_untouched(app: Path) -> None:
    target = app / "tools.py"
    target.chmod(0o444)
    before = target.read_bytes()
    try:
        out = run(".", cwd=app)
    finally:
        target.chmod(0o644)
    assert out.returncode == 2
    assert "tools.py:1:1: TW000 cannot write: the file is read-only" in out.stderr
    assert target.read_bytes() == before


def test_json_errors_say_what_kind_of_problem_each_is(app: Path) -> None:
    """A write that failed and input that does not parse are told apart by type, not text."""
    (app / "broken.py").write_text("class B:\n    def execute(self) -> str:\n  return 'x'\n")
    target = app / "tools.py"
    target.chmod(0o444)
    try:
        out = run(".", "--format", "json", cwd=app)
    finally:
        target.chmod(0o644)
    assert out.returncode == 2
    problems = {e["path"]: e["problem"] for e in json.loads(out.stdout)["errors"]}
    assert problems == {"tools.py": "write", "broken.py": "input"}, out.stdout


def test_encoding_bom_line_endings_and_mode_are_kept(tmp_path: Path) -> None:
    root = project(tmp_path, CONFIG)
    bom = root / "bom.py"
    bom.write_bytes(
        b"\xef\xbb\xbfclass T:\r\n    def execute(self) -> str:\r\n        return 'caf\xc3\xa9'\r\n"
    )
    latin = root / "latin.py"
    latin.write_bytes(
        b"# -*- coding: latin-1 -*-\nclass T:\n"
        b"    def execute(self) -> str:\n        return '\xe9'\n"
    )
    latin.chmod(0o640)
    out = run(".", cwd=root)
    assert out.returncode == 0, out.stderr
    assert bom.read_bytes() == (
        b"\xef\xbb\xbffrom toolwire import ToolResult\r\n\r\n\r\nclass T:\r\n"
        b"    def execute(self) -> ToolResult:\r\n        return ToolResult.text('caf\xc3\xa9')\r\n"
    )
    assert latin.read_bytes().endswith(b"return ToolResult.text('\xe9')\n")
    assert stat.S_IMODE(latin.stat().st_mode) == 0o640
    assert not [p for p in root.iterdir() if p.name.endswith(".toolwire")]  # no temp files left


def test_jobs_codemod_method_and_result_class_options(
    app: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    copy = tmp_path_factory.mktemp("parallel") / "copy"
    shutil.copytree(app, copy)
    serial = json.loads(run("--check", "--format", "json", ".", cwd=app).stdout)
    parallel = json.loads(run("--check", "--format", "json", "--jobs", "2", ".", cwd=copy).stdout)
    assert serial == parallel
    per_core = run("--check", "--format", "json", "--jobs", "0", ".", cwd=copy)
    assert json.loads(per_core.stdout) == serial, per_core.stderr
    only = json.loads(
        run("--check", "--format", "json", "--codemod", "tool-returns", ".", cwd=app).stdout
    )
    assert only["changed"] == ["tools.py"] and only["sinks_moved"] == 0
    custom = run(
        "--diff", "--method", "render", "--result-class", "my.results.Result", ".", cwd=app
    )
    assert custom.returncode == 0 and "-> ToolResult" not in custom.stdout
    bad = run("--codemod", "nope", ".", cwd=app)
    assert bad.returncode == 2 and "unknown codemod 'nope'" in bad.stderr


def test_config_errors_exit_2(tmp_path: Path) -> None:
    root = project(tmp_path, {"tool-methods": ["execute"], "no-such-key": 1})
    out = run(".", cwd=root)
    assert out.returncode == 2 and "no-such-key" in out.stderr and "Traceback" not in out.stderr


def test_runs_as_a_plain_libcst_codemod(tmp_path: Path) -> None:
    root = project(tmp_path, CONFIG, {"tools.py": TOOL})
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    init = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "initialize", "."],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    assert init.returncode == 0, init.stderr
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "libcst.tool",
            "codemod",
            "--no-format",
            "-x",  # the codemod lives outside the yaml's configured modules
            "toolwire.lint.codemods.tool_returns.ToolReturnsCommand",
            "tools.py",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "-> ToolResult:" in (root / "tools.py").read_text()
    assert "skipped Maybe.execute" in out.stderr


def test_absurd_nesting_is_tw000_not_a_crash(app: Path) -> None:
    # LibCST's native parser dies on this; CPython's parser refuses it first.
    deep = "(" * 5000 + "1" + ")" * 5000
    (app / "deep.py").write_text(
        f"class T:\n    def execute(self) -> str:\n        return {deep}\n"
    )
    out = run("--check", ".", cwd=app)
    assert out.returncode == 2, out.stderr
    assert any(line.startswith("deep.py:") and "TW000" in line for line in out.stderr.splitlines())
    assert "would change: tools.py" in out.stdout
