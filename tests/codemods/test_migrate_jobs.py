"""`toolwire migrate --jobs`: which worker processes a run starts, seen from outside in
/proc while the real command runs. Every step of a run (the class index, the instances,
each round of pass one, pass two) shares one pool, and `--jobs 0` is one worker per core
this process may use."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

FILES = 120
# A langchain tool class in every file: the class index, the instances, pass one and the
# wire-content pass all have work, and the plan across files takes more than one round.
TOOL = """\
from langchain_core.tools import BaseTool


class Search{n}(BaseTool):
    name: str = "search{n}"
    description: str = "Search."

    def _run(self, query: str) -> str:
        if not query:
            return "error: empty query"
        return query.upper()


def use{n}(tool: Search{n}) -> None:
    print(tool._run("x"))
"""
CONFIG = '[tool.toolwire]\npresets = ["langchain"]\n'

pytestmark = pytest.mark.skipif(
    not Path(f"/proc/{os.getpid()}/task").is_dir() or not hasattr(os, "sched_getaffinity"),
    reason="reads a run's worker processes from Linux's /proc",
)


def _command() -> list[str]:
    script = Path(sys.executable).with_name("toolwire")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "toolwire.lint.cli"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jobs")
    (root / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
    package = root / "tools"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for n in range(FILES):
        (package / f"tool_{n}.py").write_text(TOOL.format(n=n), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def serial(tree: Path) -> str:
    """The output of a -j1 run, which starts no process."""
    seen, out = _workers(["--jobs", "1"], tree)
    assert seen == set()
    return out


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as listing:
                found.update(int(child) for child in listing.read().split())
    except OSError:  # the run ended between two reads
        pass
    return found


def _workers(args: list[str], cwd: Path, prefix: list[str] | None = None) -> tuple[set[int], str]:
    """Every process the run started (polled while it runs), and its stdout."""
    process = subprocess.Popen(
        [*(prefix or []), *_command(), "migrate", "--check", *args, "."],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    seen: set[int] = set()
    while process.poll() is None:
        seen |= _children(process.pid)
        time.sleep(0.002)
    out, err = process.communicate()
    assert process.returncode == 1, err.decode()  # --check: something would change
    assert b"Traceback" not in err
    return seen, out.decode()


def test_every_step_of_a_run_shares_one_pool(tree: Path, serial: str) -> None:
    seen, out = _workers(["--jobs", "2"], tree)
    # A pool a step (four or more of them) would show 2 new workers for each.
    assert len(seen) == 2, seen
    assert out == serial
    assert f"{FILES + 1} files scanned, {FILES} would change; {FILES} methods migrated" in out


def test_jobs_0_is_one_worker_per_usable_core(tree: Path, serial: str) -> None:
    cores = len(os.sched_getaffinity(0))
    seen, out = _workers(["--jobs", "0"], tree)
    assert len(seen) == (cores if cores > 1 else 0), (seen, cores)
    assert out == serial
    taskset = shutil.which("taskset")
    if taskset is None:
        pytest.skip("no taskset to pin the run to one core")
    # Pinned to one core, --jobs 0 is a run in one process: no pool at all.
    pinned, pinned_out = _workers(["--jobs", "0"], tree, [taskset, "-c", "0"])
    assert pinned == set() and pinned_out == out


def test_a_worker_killed_mid_run_loses_nothing(tree: Path, serial: str) -> None:
    process = subprocess.Popen(
        [*_command(), "migrate", "--check", "--jobs", "2", "."],
        cwd=tree,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    killed = None
    while process.poll() is None and killed is None:
        workers = _children(process.pid)
        if workers:
            killed = min(workers)
            os.kill(killed, 9)
        time.sleep(0.002)
    out, err = process.communicate()
    assert killed is not None, "the run ended before a worker started"
    # Its chunk is redone in the parent, and the later steps get a new pool.
    assert process.returncode == 1, err.decode()
    assert b"Traceback" not in err
    assert out.decode() == serial


def test_without_a_process_pool_every_step_runs_in_the_parent(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures

    from toolwire.lint.codemods import runner
    from toolwire.lint.config import ConfigResolver

    configs = ConfigResolver(tree / "pyproject.toml", {})
    serial = runner.migrate_paths([str(tree)], configs, mode="check", jobs=1)
    tried: list[int] = []

    def no_pool(max_workers: int, **kwargs: object) -> object:
        tried.append(max_workers)
        raise OSError(38, "Function not implemented")  # as where sem_open is missing

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    summary = runner.migrate_paths([str(tree)], configs, mode="check", jobs=2)
    assert tried == [2]  # tried once for the run, not once a step
    assert summary.as_json() == serial.as_json()
    assert len(summary.changed) == FILES
