"""The one way toolwire replaces a user's file: `replace_file`.

- Only when the file still holds the bytes that were analysed (`expected`); otherwise
  `ChangedOnDisk` is raised and nothing is written.
- Atomic: the new bytes go to an unnamed `O_TMPFILE` inode in the file's own directory,
  which is given a name only for the instant before `rename()`; a kill at any moment
  leaves the old file or the new one. Where `O_TMPFILE` is missing, a named temp file
  `.NAME.toolwire-PID-XXXXXXXX` is used, and `sweep()` (run by the next migrate) removes
  those whose process is gone.
- The mode, owner and group are kept. A file with several hard links, or whose owner or
  group this process cannot give to a new inode, is written through its own inode
  instead (as black and ruff always do): a rename would split the links or hand the file
  to us. That write is not atomic: a kill during it can leave the file part-written.
- In a worker process, `guard_parent()` makes the write refuse once the parent is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path

__all__ = ["ChangedOnDisk", "ParentGone", "create_file", "guard_parent", "replace_file", "sweep"]

_TEMP = re.compile(r"^\.(?P<name>.+)\.toolwire-(?P<pid>\d+)-[0-9a-f]{8}$")
_parent: int | None = None


class ChangedOnDisk(Exception):
    """The file no longer holds the bytes that were analysed: it was left as it is."""


class ParentGone(Exception):
    """This worker's parent process has ended: no write is made on its behalf."""


def guard_parent(parent: int) -> None:
    """Run in a worker: die with `parent` (Linux), and refuse writes once it is gone."""
    global _parent
    _parent = parent
    with contextlib.suppress(OSError, AttributeError):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _check_parent() -> None:
    if _parent is not None and os.getppid() != _parent:
        raise ParentGone(f"parent process {_parent} has ended")


def replace_file(path: Path, data: bytes, *, expected: bytes | None) -> None:
    """Give `path` the bytes `data`, if it still holds `expected` (None: whatever it holds).

    A symlink is written through to its target. Raises `ChangedOnDisk`, `ParentGone`, or
    `OSError` (a read-only file is `PermissionError`); on any of them the file is unchanged.
    """
    target = Path(os.path.realpath(path))
    if not os.stat(target).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        # root could write it anyway; a file nobody may write was made so on purpose
        raise PermissionError(errno.EACCES, "the file is read-only")
    fd = os.open(target, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if expected is not None and _read_all(fd) != expected:
            raise ChangedOnDisk(str(path))
        if info.st_nlink > 1:
            _write_in_place(fd, data)
            return
        if not _replace_atomically(target, data, info, expected):
            _write_in_place(fd, data)  # the owner or group cannot be kept on a new inode
    finally:
        os.close(fd)


def create_file(path: Path, data: bytes) -> None:
    """Create `path` holding `data`, atomically; `FileExistsError` if it appeared meanwhile.

    The bytes are complete before the name exists (a hard link, which never clobbers), so
    a kill leaves no file or the whole one, and at worst a temp file that `sweep()` removes.
    """
    directory = path.parent
    umask = os.umask(0)
    os.umask(umask)
    temp: Path | None = None
    fd = _open_unnamed(directory)
    if fd is None:
        temp = directory / f".{path.name}.toolwire-{os.getpid()}-{os.urandom(4).hex()}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o666 & ~umask)
        view = memoryview(data)
        written = 0
        while written < len(data):
            written += os.write(fd, view[written:])
        os.fsync(fd)
        _check_parent()
        if temp is None:
            _link_unnamed(fd, path)
        else:
            os.link(temp, path)
    finally:
        os.close(fd)
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def _read_all(fd: int) -> bytes:
    chunks = []
    offset = 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _write_in_place(fd: int, data: bytes) -> None:
    _check_parent()
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)
    os.ftruncate(fd, len(data))
    os.fsync(fd)


def _replace_atomically(
    target: Path, data: bytes, info: os.stat_result, expected: bytes | None
) -> bool:
    """Rename a full new inode over `target`; False when its owner/group cannot be kept."""
    directory = target.parent
    temp: Path | None = None
    fd = _open_unnamed(directory)
    if fd is None:
        temp = directory / f".{target.name}.toolwire-{os.getpid()}-{os.urandom(4).hex()}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        try:
            os.fchown(fd, info.st_uid, info.st_gid)
        except PermissionError:
            return False
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
        view = memoryview(data)
        written = 0
        while written < len(data):
            written += os.write(fd, view[written:])
        os.fsync(fd)
        _check_parent()
        if expected is not None and _still_holds(target, info, expected) is False:
            raise ChangedOnDisk(str(target))
        if temp is None:
            temp = directory / f".{target.name}.toolwire-{os.getpid()}-{os.urandom(4).hex()}"
            _link_unnamed(fd, temp)
        os.replace(temp, target)
        temp = None
    finally:
        os.close(fd)
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    return True


def _still_holds(target: Path, info: os.stat_result, expected: bytes) -> bool:
    # Re-checked after the slow part (write + fsync), right before the rename.
    try:
        now = os.stat(target, follow_symlinks=False)
        if (now.st_ino, now.st_dev) != (info.st_ino, info.st_dev):
            return False
        return target.read_bytes() == expected
    except OSError:
        return False


def _link_unnamed(fd: int, name: Path) -> None:
    # linkat(AT_SYMLINK_FOLLOW) through /proc; os.link only calls linkat given a dir fd.
    proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.link(str(fd), name, src_dir_fd=proc, follow_symlinks=True)
    finally:
        os.close(proc)


def _open_unnamed(directory: Path) -> int | None:
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY | os.O_CLOEXEC, 0o600)
    except OSError:  # the file system does not support it (EOPNOTSUPP, EISDIR, ...)
        return None


def sweep(directory: Path) -> list[Path]:
    """Remove the temp files an interrupted run left in `directory`; return them.

    Only names this module makes, whose writing process no longer runs, are touched.
    """
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        match = _TEMP.match(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        if _alive(int(match["pid"])):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True
