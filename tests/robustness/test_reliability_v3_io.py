"""Issue 21, the writes and the output of migrate: a write keeps everything but the bytes
it changes, Ctrl-C stops every writer at once, and what migrate prints is escaped.

One test per reproducer of ../shared/repro/reliability-v3/ (its number in the name), each
through the real `toolwire` command.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import pty
import resource
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))
TOOL = 'class T:\n    def execute(self) -> str:\n        return "x"\n'


def toolwire(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLWIRE, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


# -- 05: a hard-linked file is never left half-written ------------------------------------

# 4095 bytes whose migrated text crosses a 4 KiB block; its last line must survive.
_HEAD = 'class T:\n    def execute(self) -> str:\n        return "x"\n\n'
_TAIL = "IMPORTANT = 42  # the end of the file\n"
LINKED = _HEAD + "#" * (4095 - len(_HEAD) - len(_TAIL) - 1) + "\n" + _TAIL

_FULL_DISK = f"""
set -e
mount -t tmpfs -o size=64k tmpfs "$1" || exit 75
cd "$1"
printf '%s' '{LINKED}' > tool.py
ln tool.py other_link.py
dd if=/dev/zero of=filler bs=1k count=200 2>/dev/null || true
set +e
{TOOLWIRE} migrate tool.py 2>"$2"/err.txt; echo "rc=$?" >> "$2"/err.txt  # not on the full disk
cp tool.py "$2"/
"""


def test_05_enospc_on_a_hard_linked_file_leaves_it_unchanged(tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to mount a small tmpfs")
    mount, out = tmp_path / "mnt", tmp_path / "out"
    mount.mkdir()
    out.mkdir()
    prefix = ["unshare", "-m", "--propagation", "private"]
    if os.geteuid() != 0:
        prefix = ["unshare", "-rm"]
    done = subprocess.run(
        [*prefix, "bash", "-c", _FULL_DISK, "-", str(mount), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ},
    )
    if done.returncode in (1, 75) and not (out / "err.txt").exists():
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    report = (out / "err.txt").read_text()
    assert (out / "tool.py").read_text() == LINKED, report  # every byte, the tail too
    assert "TW000 cannot write: No space left on device; left unchanged" in report
    assert report.rstrip().endswith("rc=2")


def _file_size_limit(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))


def test_05_a_failed_in_place_write_leaves_the_file_whole(tmp_path: Path) -> None:
    # RLIMIT_FSIZE fails the write part way as a full disk does (EFBIG), no mount needed.
    (tmp_path / "tool.py").write_text(LINKED)
    os.link(tmp_path / "tool.py", tmp_path / "other_link.py")
    done = subprocess.run(
        [TOOLWIRE, "migrate", "tool.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=functools.partial(_file_size_limit, 4096),
    )
    assert done.returncode == 2
    assert "TW000 cannot write: File too large; left unchanged" in done.stderr
    assert (tmp_path / "other_link.py").read_text() == LINKED
    done = toolwire("migrate", "tool.py", cwd=tmp_path)  # with room, written whole
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "other_link.py").read_text()  # the link still shares the inode
    assert "ToolResult.text(" in text and text.endswith(_TAIL)


# -- 06: Ctrl-C stops every writer ----------------------------------------------------------

MANY = 240
_BIG_TOOL = "".join(
    f'class T{j}:\n    def execute(self) -> str:\n        return "x"\n\n\n' for j in range(40)
)


def _rewritten(tree: Path) -> set[str]:
    return {p.name for p in tree.iterdir() if p.suffix == ".py" and p.read_text() != _BIG_TOOL}


def test_06_sigint_stops_the_writes_lists_them_and_exits_130(tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(MANY):
        (many / f"t{i:03}.py").write_text(_BIG_TOOL)
    proc = subprocess.Popen(
        [TOOLWIRE, "migrate", "--jobs", "2", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    deadline = time.monotonic() + 240
    while len(_rewritten(many)) < 3:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    at_signal = len(_rewritten(many))
    out, err = proc.communicate(timeout=240)
    written = _rewritten(many)
    listed = {line.rsplit("/", 1)[1] for line in out.splitlines() if line.startswith("changed: ")}
    assert proc.returncode == 130, err
    assert "Aborted" not in err and "Traceback" not in err
    assert "interrupted: no write began after Ctrl-C" in out
    # What is listed is exactly what was written, and that is not the whole tree: at most
    # the writes already under way (one per worker) completed after the signal.
    assert listed == written
    assert len(written) <= at_signal + 2 < MANY
    time.sleep(0.5)  # no worker is left behind to write later
    assert _rewritten(many) == written
    for name in written:  # each write is whole
        assert (many / name).read_text().count("ToolResult.text(") == 40


# -- 07: xattrs and ACLs are kept -----------------------------------------------------------


def _acl(*entries: tuple[int, int, int]) -> bytes:
    # The kernel's system.posix_acl_access format (version 2), as setfacl writes it.
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


_NOBODY_RW = _acl(
    (1, 6, 0xFFFFFFFF),  # user::rw-
    (2, 6, 65534),  # user:nobody:rw-
    (4, 4, 0xFFFFFFFF),  # group::r--
    (0x10, 6, 0xFFFFFFFF),  # mask::rw-
    (0x20, 4, 0xFFFFFFFF),  # other::r--
)


def test_07_a_rewrite_keeps_xattrs_and_the_acl(tmp_path: Path) -> None:
    tool = tmp_path / "tool.py"
    tool.write_text(TOOL)
    try:
        os.setxattr(tool, "user.origin", b"keep me")
        os.setxattr(tool, "system.posix_acl_access", _NOBODY_RW)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            pytest.skip(f"{tmp_path} holds no user xattrs or ACLs")
        raise
    mode = os.stat(tool).st_mode
    done = toolwire("migrate", "tool.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ToolResult.text(" in tool.read_text()
    assert os.getxattr(tool, "user.origin") == b"keep me"
    assert os.getxattr(tool, "system.posix_acl_access") == _NOBODY_RW
    assert os.stat(tool).st_mode == mode
    if shutil.which("getfacl"):
        acl = subprocess.run(["getfacl", "-cn", str(tool)], capture_output=True, text=True)
        assert "user:65534:rw-" in acl.stdout


# -- 14: names escaped in every line migrate prints --------------------------------------

_ESC, _FORGE, _SKIP = "esc\x1b[2Jz.py", "x\nchanged: forged.py\ny.py", "skip\x1b[5m.py"


def _hostile_tree(tmp_path: Path) -> None:
    (tmp_path / _ESC).write_text(TOOL)
    (tmp_path / _FORGE).write_text(TOOL)
    skipped = TOOL.replace("-> str", "-> Optional[str]")
    (tmp_path / _SKIP).write_text("from typing import Optional\n" + skipped)


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """What `args` prints on a terminal (click strips ANSI codes only off one)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, cwd=cwd, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    proc.wait(timeout=300)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.mark.parametrize("mode", ["write", "--diff"])
def test_14_migrate_output_escapes_file_names(tmp_path: Path, mode: str) -> None:
    _hostile_tree(tmp_path)
    args = [TOOLWIRE, "migrate", "."] + ([mode] if mode == "--diff" else [])
    shown = _on_a_terminal(args, tmp_path)
    verb = "would change" if mode == "--diff" else "changed"
    assert "\x1b[2J" not in shown and "\x1b[5m" not in shown, shown
    assert not any(line.endswith(": forged.py") for line in shown.splitlines()), shown
    assert f"{verb}: esc\\x1b[2Jz.py" in shown
    assert f"{verb}: x\\nchanged: forged.py\\ny.py" in shown
    assert "  skip\\x1b[5m.py:3: T.execute: annotated `-> Optional[str]`" in shown


def test_14_diff_headers_are_git_quoted_and_the_patch_applies(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    tree = tmp_path / "tree"
    tree.mkdir()
    _hostile_tree(tree)
    (tree / "plain name.py").write_text(TOOL)
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--diff", "."], cwd=tree, capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    headers = [line for line in done.stdout.splitlines() if line.startswith((b"---", b"+++"))]
    assert b'--- "a/x\\nchanged: forged.py\\ny.py"' in headers
    assert b'+++ "b/esc\\033[2Jz.py"' in headers
    assert b"--- a/plain name.py\t" in headers  # as git writes it, with the tab patch needs
    patch = tmp_path / "p.diff"
    patch.write_bytes(done.stdout)
    subprocess.run(["git", "init", "-q", "."], cwd=tree, check=True)
    applied = subprocess.run(["git", "apply", str(patch)], cwd=tree, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    for name in (_ESC, _FORGE, "plain name.py"):
        assert "ToolResult.text(" in (tree / name).read_text()


# -- 17: a broken file is reported once -----------------------------------------------------


def test_17_an_unparseable_candidate_is_reported_once(tmp_path: Path) -> None:
    (tmp_path / "nul.py").write_text(TOOL + "\0")
    (tmp_path / "ok.py").write_text(TOOL)
    text = toolwire("migrate", "--check", ".", cwd=tmp_path)
    assert text.returncode == 2
    assert text.stderr.count("TW000") == 1, text.stderr
    assert "nul.py:4:1: TW000 cannot parse: source contains a NUL byte" in text.stderr
    data = json.loads(toolwire("migrate", "--check", "--format", "json", ".", cwd=tmp_path).stdout)
    assert len(data["errors"]) == 1 and data["changed"] == ["ok.py"]
    written = toolwire("migrate", ".", cwd=tmp_path)
    assert written.stderr.count("TW000") == 1, written.stderr
    assert (tmp_path / "nul.py").read_text() == TOOL + "\0"  # left as it is


# -- 23 (b): one skip entry, one line ------------------------------------------------------


def test_23_a_multi_line_annotation_is_listed_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "multi.py").write_text(
        "from typing import Union\n\nclass T:\n    def execute(self) -> Union[\n"
        '        str, int\n    ]:\n        return "x"\n'
    )
    done = toolwire("migrate", "--check", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    entry = "  multi.py:4: T.execute: annotated `-> Union[str, int]`, not `-> str`"
    assert lines[lines.index("skipped 1 method (left unchanged):") + 1] == entry
    assert lines[-1] == entry
