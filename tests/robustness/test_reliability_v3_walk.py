"""Issue 21, the file walk, the pre-commit hooks and SARIF URIs: reproducers 09, 12, 18,
19, 21 and 23 (a) of ../shared/repro/reliability-v3/, run through the real `toolwire`
command (and git, to say what git ignores). The hooks under real pre-commit are in
tests/adoption/test_precommit_hooks.py.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]
LEAK = "from toolwire import ToolResult\n\ndef show(r: ToolResult) -> None:\n    print(r)\n"
TOOL = 'class T:\n    def execute(self) -> str:\n        return "x"\n'

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and FIFOs")


def run(
    args: Sequence[str], cwd: Path, *, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    command = [str(BIN / args[0]) if (BIN / args[0]).exists() else args[0], *args[1:]]
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env=environ, timeout=timeout
    )


def _json(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert "Traceback" not in done.stderr, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _checked(project: Path, *paths: str) -> set[str]:
    """The files `toolwire check` read: each holds one leak, so each has a finding."""
    done = run(["toolwire", "check", "--format", "json", *(paths or ["."])], project)
    return {f["path"] for f in _json(done)["findings"]}


def _hook(hook_id: str) -> dict[str, Any]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook: dict[str, Any] = next(h for h in hooks if h["id"] == hook_id)
    return hook


# -- 09: a .gitignore line that git accepts and ignores ---------------------------------------

GIT_IGNORES_THESE = ["!", "trailing\\", "[z-a]", "[*a-?]", "[["]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("where", ["vendor/.gitignore", ".git/info/exclude"])
def test_09_a_gitignore_line_git_drops_is_dropped(tmp_path: Path, where: str) -> None:
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    for name in ("leak.py", "vendor/kept.py", "vendor/gone.py", "vendor/[[.py", "trailing.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(LEAK, encoding="utf-8")
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    # The good lines around the bad ones still apply; CRLF as git reads it.
    lines = ["gone.py", *GIT_IGNORES_THESE, "!kept.py"]
    ignore = tmp_path / where
    ignore.parent.mkdir(parents=True, exist_ok=True)
    ignore.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard", "--", "*.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    by_git = {name for name in listed if name}
    if where == "vendor/.gitignore":
        assert "vendor/gone.py" not in by_git  # the pattern before the bad lines works
    done = run(["toolwire", "check", "--format", "json", "."], tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Warning" not in done.stderr and "internal error" not in done.stderr
    assert {f["path"] for f in _json(done)["findings"]} == by_git
    migrate = run(["toolwire", "migrate", "--check", "."], tmp_path)
    assert migrate.returncode == 1 and "would change: tool.py" in migrate.stdout, migrate.stderr
    assert "Traceback" not in migrate.stderr
    init = run(["toolwire", "init", "--dry-run", "."], tmp_path)
    assert init.returncode == 0 and "Traceback" not in init.stderr, init.stderr


# -- 18: a package named like a build directory -----------------------------------------------


def test_18_a_package_named_build_is_checked(tmp_path: Path) -> None:
    files = {
        "myapp/__init__.py": "",
        "myapp/build/__init__.py": "",  # a subpackage
        "myapp/build/steps.py": LEAK,
        "myapp/dist/steps.py": LEAK,  # a namespace portion inside the package
        "build/lib/myapp/__init__.py": "",  # setuptools' copy: not the project's code
        "build/lib/myapp/steps.py": LEAK,
        "node_modules/pkg/x.py": LEAK,
        "env/pyvenv.cfg": "home = /usr/bin\n",
        "env/__init__.py": "",  # a virtualenv is skipped whatever it holds
        "env/lib/x.py": LEAK,
        "app.py": LEAK,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    walked = {"app.py", "myapp/build/steps.py", "myapp/dist/steps.py"}
    assert _checked(tmp_path) == walked
    # A path named on the command line is never skipped.
    assert _checked(tmp_path, "build", "node_modules") == {
        "build/lib/myapp/steps.py",
        "node_modules/pkg/x.py",
    }
    (tmp_path / "myapp/build/tools.py").write_text(TOOL, encoding="utf-8")
    migrate = run(["toolwire", "migrate", "--check", "."], tmp_path)
    assert "would change: myapp/build/tools.py" in migrate.stdout, migrate.stderr


# -- 12: a staged file named like an option ---------------------------------------------------


def test_12_a_file_named_exit_zero_is_a_file_to_the_check_hook(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text(LEAK, encoding="utf-8")
    dash = tmp_path / "--exit-zero"
    dash.write_text('#!/usr/bin/env python\nprint("hi")\n', encoding="utf-8")
    dash.chmod(0o755)
    hook = _hook("toolwire-check")
    assert hook.get("pass_filenames", True) and hook["types"] == ["python"]
    # What pre-commit runs: the entry, then the file names as git lists them.
    done = run([*shlex.split(hook["entry"]), "--exit-zero", "leak.py"], tmp_path)
    assert done.returncode == 1, done.stderr
    assert "leak.py:4:5: TW204" in done.stdout


def test_12_the_migrate_hook_takes_no_file_names(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    (tmp_path / "--diff").write_text("#!/usr/bin/env python\n", encoding="utf-8")
    hook = _hook("toolwire-migrate")
    assert hook["pass_filenames"] is False
    done = run(shlex.split(hook["entry"]), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ToolResult.text(" in (tmp_path / "tool.py").read_text(encoding="utf-8")


# -- 19: the migrate hook and the callers in files not staged ----------------------------------


def test_19_the_migrate_hook_migrates_callers_outside_the_staged_files(tmp_path: Path) -> None:
    app = tmp_path / "app"
    app.mkdir()
    (app / "__init__.py").write_text("", encoding="utf-8")
    (app / "chat.py").write_text(
        "class ChatMessage:\n    @classmethod\n    def tool_result(cls, call_id, content):\n"
        "        return (call_id, content)\n",
        encoding="utf-8",
    )
    (app / "tools.py").write_text(
        'class Search:\n    def execute(self, q) -> str:\n        return "found " + q\n',
        encoding="utf-8",
    )
    (app / "loop.py").write_text(
        "from app.tools import Search\nfrom app.chat import ChatMessage\n\n\n"
        "def handle(call_id, q):\n    r = Search().execute(q)\n"
        "    return ChatMessage.tool_result(call_id, r)\n",
        encoding="utf-8",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\nwire-sinks = ["app.chat.ChatMessage.tool_result:1"]\n',
        encoding="utf-8",
    )
    hook = _hook("toolwire-migrate")
    staged = ["app/tools.py"]  # what pre-commit would pass, if the hook took file names
    done = run(
        [*shlex.split(hook["entry"]), *(staged if hook.get("pass_filenames", True) else [])],
        tmp_path,
    )
    assert "changed: app/loop.py" in done.stdout, done.stdout + done.stderr
    sent = subprocess.run(
        [sys.executable, "-c", "from app.loop import handle; print(handle('i', 'q'))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert sent.stdout.strip() == "('i', 'found q')"
    assert run(["toolwire", "migrate", "--check", "."], tmp_path).returncode == 0


# -- 21: SARIF for a file outside the working directory ---------------------------------------


def test_21_sarif_uri_of_a_file_outside_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "x.py").write_text(LEAK, encoding="utf-8")
    (tmp_path / "repo" / "y.py").write_text(LEAK, encoding="utf-8")
    uris = []
    for given in ("../lib/x.py", str(tmp_path / "lib" / "x.py"), "sub/../y.py"):
        if given.startswith("sub/"):
            (tmp_path / "repo" / "sub").mkdir()
        done = run(["toolwire", "check", "--format", "sarif", given], tmp_path / "repo")
        result = _json(done)["runs"][0]["results"][0]
        uris.append(result["locations"][0]["physicalLocation"]["artifactLocation"])
    outside = {"uri": (tmp_path / "lib" / "x.py").as_uri()}
    assert uris == [outside, outside, {"uri": "y.py", "uriBaseId": "%SRCROOT%"}]


# -- 23 (a): a FIFO named *.py ----------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_23_a_fifo_is_one_tw000_and_no_contradicting_note(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    text = run(["toolwire", "check", "."], tmp_path, timeout=30)
    assert text.returncode == 2
    assert text.stdout == "pipe.py:1:1: TW000 cannot read: not a regular file (a FIFO)\n"
    assert "no Python files found" not in text.stderr, text.stderr
    report = _json(run(["toolwire", "check", "--format", "json", "."], tmp_path, timeout=30))
    assert report["notes"] == [] and report["summary"]["input_errors"] == 1
    # With nothing at all, the note stays.
    (tmp_path / "pipe.py").unlink()
    empty = run(["toolwire", "check", "."], tmp_path, timeout=30)
    assert "no Python files found" in empty.stderr
