"""The hooks in .pre-commit-hooks.yaml, run by real `pre-commit try-repo` and `run`.

try-repo clones the hook repository and pip-installs it into an isolated environment,
so it needs PyPI (hatchling and toolwire's dependencies). It only sees committed files
(plus modifications of tracked ones), so the test commits a snapshot of this working
tree (tracked and untracked, minus .gitignore'd files) to a scratch repository first.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from adoption_helpers import REPO, run, script, write

LEAK = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)
"""
CLEAN = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return result.content
"""
UNMIGRATED = """\
class Echo:
    def execute(self, arguments: dict[str, str]) -> str:
        return arguments["text"]
"""


def _git(cwd: Path, *args: str) -> None:
    done = run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd,
    )
    assert done.returncode == 0, done.stderr


def _snapshot(target: Path) -> Path:
    listed = (
        subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    _git(target, "init", "-q")
    _git(target, "add", "-A")
    _git(target, "commit", "-q", "-m", "snapshot")
    return target


def test_hook_manifest() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    # `--`: a staged file named `--exit-zero` stays a file name.
    assert hooks["toolwire-check"]["entry"] == "toolwire check --"
    assert hooks["toolwire-check"]["language"] == "python"
    assert hooks["toolwire-check"]["types"] == ["python"]
    assert hooks["toolwire-check"]["require_serial"] is False
    # The whole tree: a tool's callers in files not staged are migrated with it.
    assert hooks["toolwire-migrate"]["entry"] == "toolwire migrate"
    assert hooks["toolwire-migrate"]["pass_filenames"] is False
    assert hooks["toolwire-migrate"]["require_serial"] is True


@dataclass
class Hooks:
    repo: Path  # the committed snapshot of this checkout
    project: Path  # a git repository with leak.py, clean.py, tool.py staged
    env: dict[str, str]

    def pre_commit(self, *args: str) -> subprocess.CompletedProcess[str]:
        return run([script("pre-commit"), *args], self.project, env=self.env, timeout=600)


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    base = tmp_path_factory.mktemp("precommit")
    repo = _snapshot(base / "toolwire")
    project = write(
        base / "project",
        {
            "pyproject.toml": "[tool.toolwire]\n",
            "leak.py": LEAK,
            "clean.py": CLEAN,
            "tool.py": UNMIGRATED,
        },
    )
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    env = {"PRE_COMMIT_HOME": str(base / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return Hooks(repo, project, env)


def _installed(done: subprocess.CompletedProcess[str]) -> str:
    output = done.stdout + done.stderr
    if "An unexpected error has occurred" in output or "CalledProcessError" in output:
        pytest.fail(f"pre-commit could not install the hook (is PyPI reachable?):\n{output}")
    return output


def test_try_repo_check_hook_fails_on_a_leak(hooks: Hooks) -> None:
    # try-repo builds a fresh store each run (one pip install): one run only. A staged
    # file named `--exit-zero` (reliability v3, 12) must not turn the gate off: identify
    # tags it python (shebang, executable), so pre-commit passes it to the hook.
    dash = hooks.project / "--exit-zero"
    dash.write_text('#!/usr/bin/env python\nprint("hi")\n', encoding="utf-8")
    dash.chmod(0o755)
    _git(hooks.project, "add", "--", "--exit-zero")
    try:
        done = hooks.pre_commit("try-repo", str(hooks.repo), "toolwire-check", "--all-files")
    finally:
        _git(hooks.project, "rm", "-q", "-f", "--", "--exit-zero")
    output = _installed(done)
    assert done.returncode == 1, output
    assert "toolwire check" in output
    assert "Failed" in output
    assert "leak.py:5:12: TW201" in output


def _configured(project: Path, repo: Path) -> None:
    # The hooks from a .pre-commit-config.yaml, as a user installs them.
    rev = run(["git", "rev-parse", "HEAD"], repo).stdout.strip()
    config = {
        "repos": [
            {
                "repo": str(repo),
                "rev": rev,
                "hooks": [{"id": "toolwire-check"}, {"id": "toolwire-migrate"}],
            }
        ]
    }
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))


def test_configured_hooks_pass_clean_code_and_migrate(hooks: Hooks) -> None:
    _configured(hooks.project, hooks.repo)
    _git(hooks.project, "add", ".pre-commit-config.yaml")

    clean = hooks.pre_commit("run", "toolwire-check", "--files", "clean.py")
    output = _installed(clean)
    assert clean.returncode == 0, output
    assert "toolwire check" in output and "Passed" in output

    migrate = hooks.pre_commit("run", "toolwire-migrate", "--files", "tool.py")
    output = _installed(migrate)
    assert migrate.returncode == 1, output
    assert "Failed" in output
    assert "files were modified by this hook" in output
    assert "ToolResult.text(" in (hooks.project / "tool.py").read_text(encoding="utf-8")


CHAT = """\
class ChatMessage:
    @classmethod
    def tool_result(cls, call_id, content):
        return (call_id, content)
"""
SEARCH = """\
class Search:
    def execute(self, q) -> str:
        return "found " + q
"""
LOOP = """\
from app.tools import Search
from app.chat import ChatMessage


def handle(call_id, q):
    r = Search().execute(q)
    return ChatMessage.tool_result(call_id, r)
"""


def test_migrate_hook_migrates_the_callers_that_are_not_staged(
    hooks: Hooks, tmp_path: Path
) -> None:
    # Reliability v3, 19: the loop was committed before; only the new tool is staged.
    project = write(
        tmp_path / "callers",
        {
            "pyproject.toml": (
                '[tool.toolwire]\nwire-sinks = ["app.chat.ChatMessage.tool_result:1"]\n'
            ),
            "app/__init__.py": "",
            "app/chat.py": CHAT,
            "app/loop.py": LOOP,
        },
    )
    _configured(project, hooks.repo)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "the loop")
    write(project, {"app/tools.py": SEARCH})
    _git(project, "add", "app/tools.py")

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return run([script("pre-commit"), *args], project, env=hooks.env, timeout=600)

    first = pre_commit("run", "toolwire-migrate")  # the staged files, as on `git commit`
    output = _installed(first)
    assert first.returncode == 1 and "files were modified by this hook" in output, output
    assert "r.content" in (project / "app" / "loop.py").read_text(encoding="utf-8")
    _git(project, "add", "-A")  # the user reviews and stages
    second = pre_commit("run", "toolwire-migrate")
    assert second.returncode == 0, _installed(second)
    done = run([script("toolwire"), "migrate", "--check", "."], project)
    assert done.returncode == 0, done.stdout + done.stderr
    sent = run(
        [sys.executable, "-c", "from app.loop import handle; print(handle('i', 'q'))"], project
    )
    assert sent.stdout.strip() == "('i', 'found q')", sent.stderr
