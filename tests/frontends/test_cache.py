"""`toolwire check`'s result cache, through the real command: a re-run reuses what is
unchanged, and every input that can change a finding invalidates it.

Each test runs the same tree twice (or more) with one thing changed in between; a cache
reused wrongly would print the first run's findings, so each asserts the second run's
findings against a run with `--no-cache` or against the literal expected ones. Reuse is
observed two ways: the `-v` line (how many files were analysed) and, without trusting
that count, which modules the run imported: a run that analyses no file never imports
the analysis (`toolwire.lint.analysis.run`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from frontend_helpers import (
    CLEAN,
    CONFIG,
    LEAK,
    LEAK_EXPECTED,
    assert_no_traceback,
    line_codes,
    run_toolwire,
    text_findings,
    toolwire_command,
    write,
)

# `caller` sends what `helpers.fetch` returns: a whole result, or (once edited) a string.
HELPER_LEAKS = """\
from toolwire import ToolResult


def fetch() -> ToolResult:
    return ToolResult.text("x")
"""
HELPER_CLEAN = HELPER_LEAKS.replace("-> ToolResult:", "-> str:").replace(
    'ToolResult.text("x")', '"x"'
)
CALLER = """\
from helpers import fetch


def message(call_id: str) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": fetch()}
"""
_ANALYSED = re.compile(r"toolwire: cache: (\d+) analysed, (\d+) reused")


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def check(
    root: Path, cache_dir: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    result = run_toolwire(
        ["check", "-v", "--jobs", "1", *args],
        root,
        env={"TOOLWIRE_CACHE_DIR": str(cache_dir), **(env or {})},
    )
    assert_no_traceback(result)
    return result


def codes(output: str, path: str) -> list[tuple[int, str]]:
    return line_codes(text_findings(output), path)


def analysed(result: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    found = _ANALYSED.search(result.stderr)
    assert found, result.stderr
    return int(found[1]), int(found[2])


def fresh(root: Path, *args: str) -> str:
    """The findings of a run without the cache: what every cached run must print."""
    result = run_toolwire(["check", "--no-cache", *args], root)
    assert_no_traceback(result)
    return result.stdout


def imports_analysis(root: Path, cache_dir: Path, *args: str) -> bool:
    env = {"TOOLWIRE_CACHE_DIR": str(cache_dir), "PYTHONPROFILEIMPORTTIME": "1"}
    result = run_toolwire(["check", "--jobs", "1", *args], root, env=env)
    return "toolwire.lint.analysis.run" in result.stderr


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """Two modules: `caller` passes a result through `helpers.wrap` to the wire."""
    return write(
        tmp_path / "proj",
        {"pyproject.toml": CONFIG, "helpers.py": HELPER_LEAKS, "caller.py": CALLER},
    )


def test_an_unchanged_rerun_reuses_every_result_and_analyses_nothing(
    project: Path, cache_dir: Path
) -> None:
    first = check(project, cache_dir)
    assert codes(first.stdout, "leak.py") == LEAK_EXPECTED
    assert analysed(first) == (2, 0)
    second = check(project, cache_dir)
    assert second.stdout == first.stdout and second.returncode == first.returncode == 1
    assert analysed(second) == (0, 2)
    # Not only the count: a run from the cache never loads the analysis at all.
    assert not imports_analysis(project, cache_dir)
    assert imports_analysis(project, cache_dir, "--no-cache")


def test_an_edited_file_is_analysed_again(project: Path, cache_dir: Path) -> None:
    check(project, cache_dir)
    (project / "leak.py").write_text(CLEAN, encoding="utf-8")
    second = check(project, cache_dir)
    assert second.stdout == fresh(project) and "leak.py" not in second.stdout
    assert second.returncode == 0 and analysed(second) == (1, 1)
    (project / "leak.py").write_text(LEAK, encoding="utf-8")  # back: the old entry serves
    third = check(project, cache_dir)
    assert codes(third.stdout, "leak.py") == LEAK_EXPECTED and analysed(third) == (0, 2)


def test_an_edit_of_the_same_size_and_time_is_seen(project: Path, cache_dir: Path) -> None:
    """The key is the content, not the stat: a rewrite within the same second and of the
    same length (a `git checkout`, a formatter) still counts."""
    leak = project / "leak.py"
    check(project, cache_dir)
    before = leak.stat()
    swapped = LEAK.replace("str(result)", "len(result)")  # same length
    assert len(swapped) == len(LEAK) and swapped != LEAK
    leak.write_text(swapped, encoding="utf-8")
    os.utime(leak, ns=(before.st_atime_ns, before.st_mtime_ns))
    second = check(project, cache_dir)
    assert (5, "TW201") not in codes(second.stdout, "leak.py")
    assert second.stdout == fresh(project)


def unread(result: subprocess.CompletedProcess[str]) -> int:
    """How many files the run did not read: their cache record stood for their bytes."""
    found = re.search(r"reused, (\d+) not read", result.stderr)
    return int(found[1]) if found else 0


def test_a_file_seen_just_after_it_changed_is_read_again(project: Path, cache_dir: Path) -> None:
    """Written a moment ago: another write in the same tick of the file system's clock
    would leave its stat as it is, so its record does not stand for its bytes."""
    check(project, cache_dir)
    second = check(project, cache_dir)
    assert analysed(second) == (0, 2) and unread(second) == 0


def test_an_unchanged_file_is_not_read_and_any_write_to_it_is_seen(
    project: Path, cache_dir: Path
) -> None:
    """The stat fast path: a file older than the clock's tick is known by its stat. Its
    change time moves with every write, even one that keeps its size and restores its
    modification time, so such an edit is seen."""
    from toolwire.lint.cache import RACY_NS

    time.sleep(RACY_NS / 1e9 + 0.1)
    first = check(project, cache_dir)
    assert codes(first.stdout, "leak.py") == LEAK_EXPECTED and unread(first) == 0
    second = check(project, cache_dir)
    assert second.stdout == first.stdout and analysed(second) == (0, 2)
    assert unread(second) == 2 and not imports_analysis(project, cache_dir)
    leak = project / "leak.py"
    before = leak.stat()
    swapped = LEAK.replace("str(result)", "len(result)")  # same length
    assert len(swapped) == len(LEAK) and swapped != LEAK
    leak.write_text(swapped, encoding="utf-8")
    os.utime(leak, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (leak.stat().st_size, leak.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    third = check(project, cache_dir)
    assert (5, "TW201") not in codes(third.stdout, "leak.py")
    assert third.stdout == fresh(project) and analysed(third) == (1, 1) and unread(third) == 1


def test_a_config_change_is_a_new_key(project: Path, cache_dir: Path) -> None:
    check(project, cache_dir)
    (project / "pyproject.toml").write_text(CONFIG + 'ignore = ["TW301"]\n', encoding="utf-8")
    second = check(project, cache_dir)
    assert codes(second.stdout, "leak.py") == [(5, "TW201")]
    assert analysed(second) == (2, 0)
    third = check(project, cache_dir, "--ignore", "TW2")  # the command line is config too
    assert codes(third.stdout, "leak.py") == [(9, "TW301")]
    (project / "pyproject.toml").write_text(
        CONFIG + '[tool.toolwire.per-file-ignores]\n"leak.py" = ["TW201"]\n', encoding="utf-8"
    )
    assert codes(check(project, cache_dir).stdout, "leak.py") == [(9, "TW301")]


def test_another_toolwire_version_does_not_reuse_the_cache(project: Path, cache_dir: Path) -> None:
    check(project, cache_dir)
    upgraded = [
        sys.executable,
        "-c",
        "import sys, toolwire; toolwire.__version__ = '999.0'; "
        "from toolwire.lint.cli import main; sys.argv[0] = 'toolwire'; main()",
        "check",
        "-v",
        "--jobs",
        "1",
    ]
    env = {**os.environ, "TOOLWIRE_CACHE_DIR": str(cache_dir)}
    result = subprocess.run(
        upgraded, cwd=project, capture_output=True, text=True, env=env, timeout=120
    )
    assert_no_traceback(result)
    assert analysed(result) == (2, 0)
    assert codes(result.stdout, "leak.py") == LEAK_EXPECTED


def test_an_edited_rule_file_of_an_editable_install_is_a_new_key(
    project: Path, cache_dir: Path, tmp_path: Path
) -> None:
    """A checkout whose rules (or code) change between runs: the stat of toolwire's own
    files is in the key, so the new message is printed, not the cached one."""
    import toolwire

    package = Path(toolwire.__file__).parent
    rules = package.parents[1] / "rules"
    if not rules.is_dir():
        pytest.skip("toolwire is not run from a checkout")
    copy = tmp_path / "checkout"
    shutil.copytree(package, copy / "src" / "toolwire", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copytree(rules, copy / "rules")
    env = {"PYTHONPATH": str(copy / "src")}
    first = check(project, cache_dir, env=env)
    assert "receives the whole ToolResult" in first.stdout
    tw301 = copy / "rules" / "TW301.md"
    tw301.write_text(
        tw301.read_text(encoding="utf-8").replace("receives the whole", "is handed the whole"),
        encoding="utf-8",
    )
    second = check(project, cache_dir, env=env)
    assert "is handed the whole ToolResult" in second.stdout
    assert "receives the whole" not in second.stdout


def test_a_helper_edited_in_one_module_changes_the_finding_in_another(
    linked: Path, cache_dir: Path
) -> None:
    first = check(linked, cache_dir)
    assert codes(first.stdout, "caller.py") == [(5, "TW301")]
    (linked / "helpers.py").write_text(HELPER_CLEAN, encoding="utf-8")
    second = check(linked, cache_dir)
    # caller.py is unchanged, but what it imports is not: analysed again, and clean
    assert "caller.py" not in second.stdout and second.returncode == 0
    assert analysed(second) == (2, 0)
    (linked / "helpers.py").write_text(HELPER_LEAKS, encoding="utf-8")
    third = check(linked, cache_dir)
    assert codes(third.stdout, "caller.py") == [(5, "TW301")]
    assert third.stdout == first.stdout == fresh(linked)


def test_a_deleted_dependency_and_a_deleted_file(linked: Path, cache_dir: Path) -> None:
    check(linked, cache_dir)
    (linked / "helpers.py").unlink()
    second = check(linked, cache_dir)
    assert second.stdout == fresh(linked) and "caller.py" not in second.stdout
    assert "1 file" in second.stderr  # the deleted file is not reported from the cache
    (linked / "caller.py").unlink()
    third = check(linked, cache_dir)
    assert third.stdout == "" and "no Python files found" in third.stderr + third.stdout


def test_renames(linked: Path, cache_dir: Path) -> None:
    check(linked, cache_dir)
    (linked / "caller.py").rename(linked / "sender.py")
    second = check(linked, cache_dir)
    assert codes(second.stdout, "sender.py") == [(5, "TW301")]
    assert "caller.py" not in second.stdout
    (linked / "helpers.py").rename(linked / "other.py")  # `from helpers import` now fails
    third = check(linked, cache_dir)
    assert third.stdout == fresh(linked) and "sender.py" not in third.stdout


def test_the_same_files_from_another_directory(project: Path, cache_dir: Path) -> None:
    """Paths are printed relative to the working directory: part of the key."""
    check(project, cache_dir)
    outside = check(project.parent, cache_dir, "--config", "proj/pyproject.toml", "proj")
    assert codes(outside.stdout, "proj/leak.py") == LEAK_EXPECTED
    assert analysed(outside) == (2, 0)


def test_a_file_moved_under_src_keeps_its_module_name_but_not_its_path(
    project: Path, cache_dir: Path
) -> None:
    check(project, cache_dir)
    (project / "src").mkdir()
    (project / "leak.py").rename(project / "src" / "leak.py")  # still module `leak`
    moved = check(project, cache_dir)
    assert codes(moved.stdout, "src/leak.py") == LEAK_EXPECTED
    assert codes(moved.stdout, "leak.py") == []


def test_two_runs_at_once_never_corrupt_the_cache(tmp_path: Path, cache_dir: Path) -> None:
    files = {"pyproject.toml": CONFIG}
    files.update({f"leak{i}.py": LEAK for i in range(12)})
    files.update({f"clean{i}.py": CLEAN for i in range(12)})
    root = write(tmp_path / "proj", files)
    expected = fresh(root)
    env = {**os.environ, "TOOLWIRE_CACHE_DIR": str(cache_dir)}
    cmd = [*toolwire_command(), "check", "--jobs", "2"]
    for _ in range(3):
        runs = [
            subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        outputs = [run.communicate(timeout=120)[0] for run in runs]
        assert outputs == [expected, expected]
        assert [run.returncode for run in runs] == [1, 1]
    after = check(root, cache_dir)
    assert after.stdout == expected and analysed(after) == (0, 24)
    assert [p.name for p in cache_dir.iterdir() if p.name.startswith(".tmp")] == []


def test_a_temp_file_left_by_a_killed_run_is_removed(project: Path, cache_dir: Path) -> None:
    cache_dir.mkdir()
    old, recent = cache_dir / ".tmp-1-1", cache_dir / ".tmp-2-2"
    for left in (old, recent):
        left.write_bytes(b"half a cache")
    os.utime(old, (0, 0))
    check(project, cache_dir)
    assert not old.exists() and recent.exists()  # a run writing now keeps its own


@pytest.mark.parametrize("damage", ["truncated", "garbage", "flipped byte", "empty", "foreign"])
def test_a_damaged_cache_file_is_ignored_and_rebuilt(
    project: Path, cache_dir: Path, damage: str
) -> None:
    check(project, cache_dir)
    (file,) = cache_dir.glob("*.cache")
    data = file.read_bytes()
    damaged = {
        "truncated": data[: len(data) // 2],
        "garbage": os.urandom(len(data)),
        "flipped byte": data[:-3] + bytes([data[-3] ^ 0xFF]) + data[-2:],
        "empty": b"",
        "foreign": b"\x80\x04K\x01." + data,  # a pickle, say
    }[damage]
    file.write_bytes(damaged)
    second = check(project, cache_dir)
    assert codes(second.stdout, "leak.py") == LEAK_EXPECTED and second.returncode == 1
    assert analysed(second) == (2, 0)
    assert analysed(check(project, cache_dir)) == (0, 2)  # rebuilt


def test_a_cache_dir_that_cannot_be_written_is_no_error(project: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n", encoding="utf-8")
    nowhere = blocker / "cache"
    quiet = run_toolwire(["check"], project, env={"TOOLWIRE_CACHE_DIR": str(nowhere)})
    assert_no_traceback(quiet)
    assert quiet.stdout == fresh(project) and quiet.returncode == 1
    assert quiet.stderr == run_toolwire(["check", "--no-cache"], project).stderr  # silent
    loud = check(project, nowhere)
    assert analysed(loud) == (2, 0)
    assert "note: cache not written" in loud.stderr
    assert loud.stderr.count("\n") == quiet.stderr.count("\n") + 2


def test_cache_dir_option_and_no_cache(project: Path, tmp_path: Path, cache_dir: Path) -> None:
    chosen = tmp_path / "chosen"
    result = run_toolwire(
        ["check", "--cache-dir", str(chosen)], project, env={"TOOLWIRE_CACHE_DIR": str(cache_dir)}
    )
    assert_no_traceback(result)
    assert len(list(chosen.glob("*.cache"))) == 1 and not cache_dir.exists()
    # --no-cache neither reads a warm cache (the analysis runs) nor writes one
    check(project, cache_dir)
    (file,) = cache_dir.glob("*.cache")
    stamp = file.stat().st_mtime_ns
    assert imports_analysis(project, cache_dir, "--no-cache")
    (project / "new.py").write_text(LEAK, encoding="utf-8")
    no_cache = check(project, cache_dir, "--no-cache")
    assert "toolwire: cache:" not in no_cache.stderr
    assert file.stat().st_mtime_ns == stamp
    assert list(project.rglob("*.cache")) == []  # nothing in the user's tree


def test_the_default_cache_dir_is_the_user_cache_dir(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "xdg"
    env = {"TOOLWIRE_CACHE_DIR": "", "XDG_CACHE_HOME": str(home)}
    result = run_toolwire(["check"], project, env=env)
    assert_no_traceback(result)
    assert len(list((home / "toolwire").glob("*.cache"))) == 1


def test_a_cache_of_twenty_thousand_entries_stays_small(tmp_path: Path) -> None:
    """The size bound of issue #27, on the real payloads of a module with findings and
    exports, written by the cache's own `save`."""
    from toolwire.lint import cache
    from toolwire.lint.analysis.modules import Effect, Exports, FunctionExport
    from toolwire.lint.findings import Finding

    def payload(i: int) -> cache.Payload:  # each its own strings, as real entries are
        path = f"pkg/module_{i}.py"
        finding = Finding(path, 12, 5, "TW301", f"{i} " + "m" * 90, 12, 40, "wire-content")
        effect = Effect("a", 1, 1, ((f"pkg.module_{i}", 3, "TW201", f"{i} " + "n" * 60),))
        export = FunctionExport(3, ("a", "b"), frozenset({"a"}), (effect,))
        exports = Exports(frozenset({f"pkg.module_{i}.T"}), {f"pkg.module_{i}.f": export})
        return cache.encode([finding, finding], exports)

    store = cache.ResultCache(tmp_path / "c" / "p.cache", {})
    store.added = {i.to_bytes(20, "big"): payload(i) for i in range(20_000)}
    assert cache.save(store) is None
    (file,) = (tmp_path / "c").iterdir()
    assert file.stat().st_size < 50_000_000
    assert len(cache.load(file).entries) == 20_000
