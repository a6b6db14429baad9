"""`toolwire check --jobs 2`: the same report as one process, whatever order the workers
finish in, with the costliest files handed out first."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from frontend_helpers import (
    CLEAN,
    CONFIG,
    LEAK,
    assert_no_traceback,
    run_toolwire,
    write,
)

from toolwire.lint.pool import parallel_map

HELPER = """\
from toolwire import ToolResult


def fetch() -> ToolResult:
    return ToolResult.text("x")
"""
CALLER = """\
from helpers import fetch


def message(call_id: str) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": fetch()}
"""


def _tree(root: Path) -> Path:
    """Files of very different sizes (a size-ordered run reorders them), leaking and clean,
    and two linked modules whose finding needs the other's summary."""
    files = {"pyproject.toml": CONFIG, "helpers.py": HELPER, "caller.py": CALLER}
    for i in range(30):
        padding = "\n".join(f"VALUE_{n} = {n}" for n in range(i * 40))
        files[f"mod{i:02}.py"] = (LEAK if i % 3 == 0 else CLEAN) + padding + "\n"
    return write(root, files)


def test_two_workers_report_what_one_process_reports(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    one = run_toolwire(["check", "--no-cache", "--jobs", "1"], root)
    two = run_toolwire(["check", "--no-cache", "--jobs", "2"], root)
    assert_no_traceback(two)
    assert "caller.py:5:" in one.stdout and "mod27.py:5:" in one.stdout
    assert two.stdout == one.stdout and two.returncode == one.returncode == 1
    assert two.stderr == one.stderr


def test_two_workers_fill_and_reuse_the_cache(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    env = {"TOOLWIRE_CACHE_DIR": str(tmp_path / "cache")}
    expected = run_toolwire(["check", "--no-cache", "--jobs", "1"], root).stdout
    first = run_toolwire(["check", "-v", "--jobs", "2"], root, env=env)
    second = run_toolwire(["check", "-v", "--jobs", "2"], root, env=env)
    assert first.stdout == second.stdout == expected
    assert "cache: 32 analysed, 0 reused" in first.stderr
    assert "cache: 0 analysed, 32 reused" in second.stderr


def _note(item: tuple[str, str]) -> str:
    log, name = item
    with open(log, "a", encoding="utf-8") as out:  # one short line: appends do not interleave
        out.write(f"{os.getpid()} {name}\n")
    return name.upper()


def test_results_come_back_in_order_and_the_costliest_item_goes_first(tmp_path: Path) -> None:
    log = str(tmp_path / "log")
    names = [f"item{i:03}" for i in range(100)]
    cost = [1.0] * 100
    cost[57] = 1000.0  # one slow file in the middle of the list
    seen: dict[int, str] = {}
    results = parallel_map(
        _note, [(log, n) for n in names], 2, each=lambda i, r: seen.setdefault(i, r), cost=cost
    )
    assert results == [n.upper() for n in names]
    assert seen == dict(enumerate(results))
    lines = Path(log).read_text(encoding="utf-8").splitlines()
    assert sorted(line.split()[1] for line in lines) == names  # each item once
    by_worker: dict[str, list[str]] = {}
    for line in lines:
        pid, name = line.split()
        by_worker.setdefault(pid, []).append(name)
    # The slow item is the first its worker ran: in list order it was mid-chunk. (How the
    # cheap items spread over the workers is up to the scheduler: one may take them all.)
    assert any(run[0] == "item057" for run in by_worker.values())


def test_a_warm_run_starts_no_workers(tmp_path: Path) -> None:
    """What the cache answers without reading a file is answered before any worker is
    started; the default `--jobs` then counts only the files left to analyse."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the default is one process anyway")
    from toolwire.lint.cache import RACY_NS

    # No module of the tree may hold a result, so none is linked (and read for it); the
    # leaking file's name is no module name.
    files = {"pyproject.toml": CONFIG, "tool-leak.py": LEAK}
    files.update({f"plain{i:02}.py": f"VALUE = {i}\n" for i in range(30)})
    root = write(tmp_path / "proj", files)
    time.sleep(RACY_NS / 1e9 + 0.1)  # older than the racy window: known by their stat
    env = {"TOOLWIRE_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPROFILEIMPORTTIME": "1"}
    cold = run_toolwire(["check", "-v"], root, env=env)
    warm = run_toolwire(["check", "-v"], root, env=env)
    assert warm.stdout == cold.stdout and "tool-leak.py:9:" in warm.stdout
    assert "cache: 31 analysed, 0 reused" in cold.stderr
    assert "concurrent.futures.process" in cold.stderr  # 31 files: one worker per core
    assert "cache: 0 analysed, 31 reused, 31 not read" in warm.stderr
    assert "concurrent.futures.process" not in warm.stderr


def test_a_warm_run_of_linked_modules_starts_no_workers(tmp_path: Path) -> None:
    """Linked modules are read (their imports make the graph), and answered from the
    cache in this process when their imports' summaries are cached too."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the default is one process anyway")
    root = _tree(tmp_path / "proj")
    env = {"TOOLWIRE_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPROFILEIMPORTTIME": "1"}
    cold = run_toolwire(["check", "-v"], root, env=env)
    warm = run_toolwire(["check", "-v"], root, env=env)
    assert warm.stdout == cold.stdout and "caller.py:5:" in warm.stdout
    assert "concurrent.futures.process" in cold.stderr
    assert "cache: 0 analysed, 32 reused" in warm.stderr
    assert "concurrent.futures.process" not in warm.stderr
    clean = HELPER.replace("-> ToolResult:", "-> str:").replace('ToolResult.text("x")', '"x"')
    (root / "helpers.py").write_text(clean, encoding="utf-8")
    edited = run_toolwire(["check", "-v"], root, env=env)
    assert "caller.py" not in edited.stdout  # helpers' summary changed: caller again
    assert "cache: 2 analysed, 30 reused" in edited.stderr
