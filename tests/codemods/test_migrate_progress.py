"""`toolwire migrate` on many files speaks at once: a progress bar on a terminal, one line
on stderr otherwise, long before the run ends. Through the real command."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest

from toolwire.lint.commands import PROGRESS_ABOVE

FILES = PROGRESS_ABOVE + 10
TOOL = """\
class Search{n}:
    def run(self, q: str) -> str:
        if not q:
            return "error: empty query"
        return q.upper()
"""


def _command() -> list[str]:
    import sys

    script = Path(sys.executable).with_name("toolwire")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "toolwire.lint.cli"]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "CI"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("many")
    for n in range(FILES):
        (root / f"tool_{n}.py").write_text(TOOL.format(n=n), encoding="utf-8")
    return root


MIGRATE = ["migrate", "--diff", "--method", "run", "."]


def test_the_first_line_comes_within_a_second_while_the_run_goes_on(tree: Path) -> None:
    started = time.monotonic()
    process = subprocess.Popen(
        [*_command(), *MIGRATE],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    assert process.stderr is not None
    first = process.stderr.readline().decode()
    first_at = time.monotonic() - started
    running = process.poll() is None
    rest = process.stderr.read().decode()
    assert process.wait() == 0, rest
    took = time.monotonic() - started
    assert first == f"toolwire: migrating {FILES} files...\n"
    assert first_at < 1.0 and running, (first_at, took)
    assert took > first_at
    assert "\r" not in rest and "[#" not in rest  # no bar into a pipe
    assert f"{FILES} files scanned, {FILES} would change;" in rest


def test_diff_streams_each_patch_in_the_files_order(tree: Path) -> None:
    process = subprocess.Popen(
        [*_command(), *MIGRATE, "--jobs", "2"],
        cwd=tree,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    running = process.poll() is None
    streamed = first + process.stdout.read()
    assert process.wait() == 0
    assert first.startswith(b"--- a/tool_") and running
    # Workers finish out of order; the patch is the one a single process prints.
    done = subprocess.run([*_command(), *MIGRATE], cwd=tree, capture_output=True, env=_env())
    assert streamed == done.stdout
    assert streamed.count(b"\n--- a/") + 1 == FILES


def test_a_small_run_says_nothing_first(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_text(TOOL.format(n=0), encoding="utf-8")
    done = subprocess.run(
        [*_command(), *MIGRATE], cwd=tmp_path, capture_output=True, text=True, env=_env()
    )
    assert done.returncode == 0, done.stderr
    assert "migrating" not in done.stderr


def test_a_terminal_gets_a_progress_bar(tree: Path) -> None:
    parent, child = pty.openpty()
    process = subprocess.Popen(
        [*_command(), *MIGRATE],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=child,
        env=_env(),
    )
    os.close(child)
    seen = b""
    deadline = time.monotonic() + 120
    try:
        # The bar redraws with `\r` and shows how far it is; one redraw is enough.
        while b"%" not in seen.rpartition(b"\r")[2] and time.monotonic() < deadline:
            ready, _, _ = select.select([parent], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(parent, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
    finally:
        process.kill()  # --diff writes nothing: stopping it early loses nothing
        process.wait()
        os.close(parent)
    text = seen.decode("utf-8", "replace")
    assert f"toolwire: migrating {FILES} files" in text
    assert "\r" in text and "%" in text, text
    assert f"toolwire: migrating {FILES} files...\n" not in text  # the bar, not the line
