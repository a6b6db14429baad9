"""Issue 15, part A: migrate never changes a return's meaning, never writes outside the tree,
never loses an edit or a byte, and never runs on after it is stopped.

Each test is one reproducer of ../shared/repro/reliability/ (its number in the name),
run through the real `toolwire` command unless it needs to reach one step of the run.
"""

from __future__ import annotations

import ast
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolwire.lint import writes
from toolwire.lint.codemods import finish, runner
from toolwire.lint.config import load_config

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))
BENCH = Path(__file__).parents[2] / "bench"
TOOL = b'class T:\n    def execute(self) -> str:\n        return "x"\n'
ROOT = os.geteuid() == 0


def toolwire(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def _returned(source: str) -> ast.expr:
    method = ast.parse(source).body[-1]
    assert isinstance(method, ast.ClassDef)
    func = method.body[0]
    assert isinstance(func, ast.FunctionDef)
    statement = func.body[0]
    assert isinstance(statement, ast.Return) and statement.value is not None
    return statement.value


# -- 19, 22: the migrated call's one argument is exactly the old expression ---------------


@pytest.mark.parametrize(
    "statement",
    [
        "return ()",
        "return (1, 2)",
        "return (1,)",
        "return (*a,)",
        "return ((1, 2))",
        "return 1, 2",
        'return("x")',
        "return(a, b)",
        "return (x for x in a)",
        "return (\n            a,  # why\n            b,\n        )",
        "return (a) if a else (b, c)",
    ],
)
def test_19_22_return_value_is_one_argument_ast_equal(tmp_path: Path, statement: str) -> None:
    source = f"class T:\n    def execute(self, a, b, c) -> str:\n        {statement}\n"
    path = tmp_path / "t.py"
    path.write_text(source)
    out = toolwire("migrate", "t.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    new = _returned(path.read_text())
    assert isinstance(new, ast.Call) and len(new.args) == 1 and not new.keywords
    assert ast.dump(new.args[0]) == ast.dump(_returned(source))


def test_19_stdlib_sample_keeps_every_return(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "returns_sample.py"), "--limit", "150", "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "changed meaning: 0" in out.stdout and "migrate errors: 0" in out.stdout


# -- 21: a directory symlink out of the tree is not followed ------------------------------


def test_21_symlink_out_of_tree_is_reported_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "pkg"
    project = tmp_path / "project"
    outside.mkdir(parents=True)
    project.mkdir()
    (outside / "tool.py").write_bytes(TOOL)
    (project / "vendor").symlink_to(Path("../outside/pkg"))
    (project / "inner.py").write_bytes(TOOL)
    (project / "sub").mkdir()
    (project / "sub" / "deep.py").write_bytes(TOOL)
    (project / "zalias").symlink_to(Path("sub"), target_is_directory=True)  # inside: fine
    out = toolwire("migrate", ".", cwd=project)
    assert out.returncode == 0, out.stderr
    assert (outside / "tool.py").read_bytes() == TOOL
    assert "vendor" in out.stdout and "out of the tree" in out.stdout
    assert (project / "inner.py").read_bytes() != TOOL  # the tree itself was migrated
    assert (project / "sub" / "deep.py").read_bytes() != TOOL
    assert "zalias" not in out.stdout.replace("changed: sub/deep.py", "")


# -- 23: every codec round-trips byte for byte, or the file is left alone -----------------


def test_23_codec_cookies_left_alone_and_run_goes_on(tmp_path: Path) -> None:
    idna = b"# coding: idna\n" + TOOL
    escape = b"# coding: unicode_escape\n" + TOOL
    (tmp_path / "b_idna.py").write_bytes(idna)
    (tmp_path / "c_escape.py").write_bytes(escape)
    (tmp_path / "a_plain.py").write_bytes(TOOL)
    (tmp_path / "d_latin.py").write_bytes(b"# coding: latin-1\n" + TOOL.replace(b'"x"', b'"\xe9"'))
    out = toolwire("migrate", ".", cwd=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert (tmp_path / "b_idna.py").read_bytes() == idna
    assert (tmp_path / "c_escape.py").read_bytes() == escape
    assert "b_idna.py:1:1: TW000 cannot write: the idna encoding" in out.stderr
    assert "c_escape.py:1:1: TW000 cannot write: the unicode_escape encoding" in out.stderr
    assert b"ToolResult.text" in (tmp_path / "a_plain.py").read_bytes()
    latin = (tmp_path / "d_latin.py").read_bytes()
    assert b'ToolResult.text("\xe9")' in latin  # still latin-1, byte for byte
    assert "changed: a_plain.py" in out.stdout and "changed: d_latin.py" in out.stdout


# -- 20: --diff applies with git apply and patch -------------------------------------------

DIFF_CASES = {
    "bom.py": b'\xef\xbb\xbfclass T:\r\n    def execute(self) -> str:\r\n        return "x"\r\n',
    "latin1.py": b"# coding: latin-1\nclass T:\n    def execute(self) -> str:\n"
    b'        return "\xe9"\n',
    "cr.py": b'class T:\r    def execute(self) -> str:\r        return "x"\r',
    "noeol.py": b'class T:\n    def execute(self) -> str:\n        return "x"',
}


@pytest.mark.parametrize("name", sorted(DIFF_CASES))
@pytest.mark.parametrize("tool", ["git", "patch"])
def test_20_diff_applies(tmp_path: Path, name: str, tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    (tmp_path / name).write_bytes(DIFF_CASES[name])
    diff = subprocess.run([TOOLWIRE, "migrate", "--diff", name], cwd=tmp_path, capture_output=True)
    assert diff.returncode == 0 and diff.stdout, diff.stderr
    (tmp_path / "x.diff").write_bytes(diff.stdout)
    apply = (
        ["git", "apply", "x.diff"]
        if tool == "git"
        else ["patch", "-p1", "--quiet", "--input", "x.diff"]
    )
    if tool == "git":
        subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    done = subprocess.run(apply, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout
    applied = (tmp_path / name).read_bytes()
    (tmp_path / name).write_bytes(DIFF_CASES[name])
    write = toolwire("migrate", name, cwd=tmp_path)
    assert write.returncode == 0, write.stderr
    assert applied == (tmp_path / name).read_bytes()  # the patch is exactly the migration


# -- 10: an edit made during the run is never overwritten -------------------------------


def test_10_file_changed_between_passes_is_left_as_saved(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_bytes(TOOL)
    config = load_config(None)
    first = runner.tool_returns_file(path, config)
    assert first.new_text is not None and first.digest is not None
    edited = TOOL + b"\nIMPORTANT = 42  # saved by the user during the run\n"
    path.write_bytes(edited)
    task = finish.FinishTask(path, config, "write", True, frozenset(), first.new_text, first.digest)
    outcome = finish.finish_file(task)
    assert path.read_bytes() == edited
    assert outcome.raced and not outcome.changed
    assert any("changed on disk during the run" in e.message for e in outcome.errors)


def test_10_replace_file_refuses_changed_bytes(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_bytes(b"new edit\n")
    with pytest.raises(writes.ChangedOnDisk):
        writes.replace_file(path, b"migrated\n", expected=b"what was analysed\n")
    assert path.read_bytes() == b"new edit\n"
    writes.replace_file(path, b"migrated\n", expected=b"new edit\n")
    assert path.read_bytes() == b"migrated\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.py"]


def test_10_race_is_in_the_summary_and_exit_code(tmp_path: Path) -> None:
    summary = runner.Summary("write", runner.CODEMODS)
    outcome = runner.FileOutcome("t.py")
    finish._raced(outcome)
    summary.outcomes.append(outcome)
    text = "\n".join(summary.as_text())
    assert "1 file changed on disk during the run and was left as saved" in text
    from toolwire.lint.commands.migrate import _report

    assert _report(summary, "text", colour=False) == 2


# -- 11: mode, owner and group kept; hard links not split -------------------------------


def test_11_mode_owner_group_and_hard_links_kept(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_bytes(TOOL)
    tool.chmod(0o664)
    if ROOT:
        os.chown(tool, 65534, 65534)
    single = tmp_path / "single.py"
    single.write_bytes(TOOL)
    single.chmod(0o640)
    if ROOT:
        os.chown(single, 65534, 65534)
    os.link(tool, tmp_path / "other_link.py")
    before = {p.name: p.stat() for p in (tool, single)}
    out = toolwire("migrate", "tool.py", "single.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for path in (tool, single):
        now, old = path.stat(), before[path.name]
        assert (now.st_mode, now.st_uid, now.st_gid) == (old.st_mode, old.st_uid, old.st_gid)
        assert b"ToolResult.text" in path.read_bytes()
    assert tool.stat().st_ino == before["tool.py"].st_ino  # written through its inode
    assert (tmp_path / "other_link.py").read_bytes() == tool.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other_link.py", "single.py", "tool.py"]


# -- 08: no stray temp file after a kill at the fsync; leftovers are swept ----------------


STRACE_KILL_AT_FSYNC = ("strace", "-f", "-qq", "-e", "trace=fsync")
STRACE_KILL_AT_FSYNC += ("-e", "inject=fsync:signal=SIGKILL")


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_08_kill_at_fsync_leaves_no_temp_file(tmp_path: Path) -> None:
    (tmp_path / "tool.py").write_bytes(TOOL)
    subprocess.run(
        [*STRACE_KILL_AT_FSYNC, TOOLWIRE, "migrate", "."],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tool.py"]
    assert (tmp_path / "tool.py").read_bytes() == TOOL


def test_08_next_run_removes_temp_files_of_dead_runs(tmp_path: Path) -> None:
    done = subprocess.Popen(["true"])
    done.wait()  # its pid no longer runs
    stale = tmp_path / f".tool.py.toolwire-{done.pid}-0123abcd"
    live = tmp_path / f".tool.py.toolwire-{os.getpid()}-0123abcd"
    mine = tmp_path / ".tool.py.1234.toolwire-notours"
    for path in (stale, live, mine):
        path.write_bytes(b"partial")
    (tmp_path / "tool.py").write_bytes(TOOL)
    out = toolwire("migrate", ".", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert not stale.exists()
    assert live.exists() and mine.exists()  # a running writer's, and a name we never make


# -- 09: workers die with their parent and write nothing after it ------------------------


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_09_kill_of_parent_stops_the_workers(tmp_path: Path) -> None:
    body = b"".join(
        b"class T%d:\n    def execute(self) -> str:\n        return 'x'\n" % j for j in range(30)
    )
    for i in range(150):
        (tmp_path / f"t{i:03}.py").write_bytes(body)
    proc = subprocess.Popen(
        [TOOLWIRE, "migrate", "--jobs", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        workers = _children(proc.pid)
    assert len(workers) == 2, "the pool did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)
    snapshot = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, "workers outlived their parent"
    time.sleep(1)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == snapshot
    assert all(data in (body, None) or b"ToolResult" in data for data in snapshot.values())


# -- 16: --jobs is capped at the work ----------------------------------------------------


def test_16_jobs_capped_at_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.py").write_bytes(TOOL)
    (tmp_path / "b.py").write_bytes(TOOL)
    sizes: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers: int, **kwargs: object) -> object:
        sizes.append(max_workers)
        return real(max_workers=max_workers, **kwargs)  # type: ignore[arg-type]

    # The one pool (toolwire.lint.pool) imports the executor when it is needed.
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    config = load_config(None)
    summary = runner.migrate_paths([str(tmp_path)], lambda _: config, mode="check", jobs=300)
    assert len(summary.changed) == 2
    assert sizes and max(sizes) == 2


# -- 04, 05, 06, 07: deep expressions: no crash, TW000 past the limit, linear time --------


def _deep_tool(expression: str) -> str:
    head = "class T:\n    def execute(self) -> str:\n"
    return f"{head}        x = {expression}\n        return 'x'\n"


@pytest.mark.parametrize(
    ("name", "expression"),
    [
        ("plus500", " + ".join(["'a'"] * 500)),  # 04
        ("neg450", "-" * 450 + "1"),  # 04
        ("not20000", "not " * 20000 + "1"),  # 06
        ("plus8000", " + ".join(["'a'"] * 8000)),  # 07
        ("ternary1500", "r if b else " * 1500 + "r"),
    ],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_04_06_07_deep_expressions_never_crash(
    tmp_path: Path, name: str, expression: str, jobs: str
) -> None:
    (tmp_path / f"{name}.py").write_text(_deep_tool(expression))
    (tmp_path / "plain.py").write_bytes(TOOL)
    out = toolwire("migrate", "--jobs", jobs, ".", cwd=tmp_path)
    assert out.returncode in (0, 2), out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    assert b"ToolResult.text" in (tmp_path / "plain.py").read_bytes()  # the run went on
    text = (tmp_path / f"{name}.py").read_text()
    if out.returncode == 0:
        assert "-> ToolResult:" in text
        ast.parse(text)
    else:
        assert f"{name}.py:" in out.stderr and "TW000" in out.stderr
        assert "-> str:" in text


def test_05_deep_ternary_in_a_sink_payload(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "chat.py").write_text(
        "class ChatMessage:\n    @classmethod\n    def tool_result(cls, i, content): ...\n"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\nwire-sinks = ["app.chat.ChatMessage.tool_result:1"]\n'
    )
    chain = "r if b else " * 600 + "r"
    (tmp_path / "loop.py").write_text(
        "from toolwire import ToolResult\nfrom app.chat import ChatMessage\n\n"
        f"def f(r: ToolResult, b):\n    x = {chain}\n    ChatMessage.tool_result('i', x)\n"
    )
    out = toolwire("migrate", "loop.py", cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ChatMessage.tool_result('i', x.content)" in (tmp_path / "loop.py").read_text()


def test_07_time_is_linear_in_chain_length(tmp_path: Path) -> None:
    times = {}
    for n in (2000, 16000):
        (tmp_path / f"t{n}.py").write_text(_deep_tool(" + ".join(["'a'"] * n)))
        start = time.monotonic()
        out = toolwire("migrate", "--check", f"t{n}.py", cwd=tmp_path)
        times[n] = time.monotonic() - start
        assert out.returncode == 2 and "nested over" in out.stderr, out.stderr[-500:]
    # 8x the length may cost at most ~8x the time above the fixed start-up cost.
    assert times[16000] < 8 * times[2000] + 2, times


# -- 03, 24: discovery --------------------------------------------------------------------


def _no_dac(args: list[str]) -> list[str]:
    if not ROOT:
        return args
    if shutil.which("setpriv") is None:
        pytest.skip("root without setpriv cannot lose its DAC override")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *args]


@pytest.mark.parametrize(
    "command",
    [["check", "."], ["migrate", "--check", "."], ["init", "--dry-run", "."]],
    ids=["check", "migrate", "init"],
)
def test_03_unsearchable_directory_is_one_tw000(tmp_path: Path, command: list[str]) -> None:
    leak = "from toolwire import ToolResult\n\ndef show(r: ToolResult) -> None:\n    print(r)\n"
    (tmp_path / "leak.py").write_text(leak)
    (tmp_path / "tool.py").write_bytes(TOOL)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "leak.py").write_text(leak)
    locked.chmod(0)
    try:
        out = subprocess.run(
            _no_dac([TOOLWIRE, *command]), cwd=tmp_path, capture_output=True, text=True
        )
    finally:
        locked.chmod(0o755)
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr, out.stderr
    assert "locked" in out.stderr + out.stdout and "Permission denied" in out.stderr + out.stdout
    if command[0] == "check":
        assert out.returncode == 2 and "leak.py:4:5: TW204" in out.stdout
    if command[0] == "migrate":
        assert out.returncode == 2 and "would change: tool.py" in out.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_24_fifo_is_named_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    for args in (["migrate", "pipe.py"], ["migrate", "."], ["check", "pipe.py"]):
        out = toolwire(*args, cwd=tmp_path, timeout=30)
        assert out.returncode == 2
        assert "pipe.py:1:1: TW000 cannot read: not a regular file (a FIFO)" in out.stderr + (
            out.stdout
        )


def test_24_form_feed_indentation_is_named_and_left_alone(tmp_path: Path) -> None:
    source = b'\x0cclass T:\n    def execute(self) -> str:\n\x0c        return "x"\n'
    (tmp_path / "ff.py").write_bytes(source)
    out = toolwire("migrate", "ff.py", cwd=tmp_path, timeout=60)
    assert out.returncode == 2
    assert "ff.py:1:1: TW000 cannot migrate: a form feed in the indentation" in out.stderr
    assert (tmp_path / "ff.py").read_bytes() == source
