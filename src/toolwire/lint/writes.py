"""The one way toolwire replaces a user's file: `replace_file`.

- Only when the file still holds the bytes that were analysed (`expected`); otherwise
  `ChangedOnDisk` is raised and nothing is written.
- Atomic: the new bytes go to an unnamed `O_TMPFILE` inode in the file's own directory,
  which is given a name only for the instant before `rename()`; a kill at any moment
  leaves the old file or the new one. Where `O_TMPFILE` is missing, a named temp file
  `.NAME.toolwire-PID-XXXXXXXX` is used, and `sweep()` (run by the next migrate) removes
  those whose process is gone.
- Everything but the bytes is kept: mode, owner, group and every extended attribute
  (user xattrs, POSIX ACLs, SELinux labels, file capabilities) are copied onto the new
  inode before the rename. A file with several hard links, or whose owner, group or an
  xattr this process cannot give to a new inode, is written through its own inode
  instead (as black and ruff always do): a rename would split the links, hand the file
  to us or drop the xattr. That write reserves the space first (`posix_fallocate`) and
  puts the old bytes back if it fails; only a kill during it can leave it part-written.
- `request_stop()` (Ctrl-C) makes every later write, here and in the workers that share
  the flag (`share_stop`), refuse with `Interrupted`; a write already past that check
  completes.
- In a worker process, `guard_parent()` makes the write refuse once the parent is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = [
    "ChangedOnDisk",
    "Interrupted",
    "ParentGone",
    "PartWritten",
    "catch_sigint",
    "create_file",
    "guard_parent",
    "replace_file",
    "request_stop",
    "share_stop",
    "stop_requested",
    "sweep",
]

_TEMP = re.compile(r"^\.(?P<name>.+)\.toolwire-(?P<pid>\d+)-[0-9a-f]{8}$")
_parent: int | None = None
_stopped = False
# A byte in shared memory (`multiprocessing.RawValue`) the workers read: it takes no lock,
# so the signal handler may set it whatever the main thread is doing.
_shared: Any = None


class ChangedOnDisk(Exception):
    """The file no longer holds the bytes that were analysed: it was left as it is."""


class ParentGone(Exception):
    """This worker's parent process has ended: no write is made on its behalf."""


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C) before this write began: the file is unchanged."""


class PartWritten(Exception):
    """An in-place write failed and the old bytes could not be put back either."""


def request_stop() -> None:
    """No write begins from now on, in this process or in the workers sharing the flag."""
    global _stopped
    _stopped = True
    if _shared is not None:
        _shared.value = 1


def stop_requested() -> bool:
    return _stopped or (_shared is not None and bool(_shared.value))


def share_stop(flag: Any) -> None:
    """Use `flag` (a `multiprocessing.RawValue("b")`) as the stop flag shared with workers."""
    global _shared
    _shared = flag
    if _stopped:
        flag.value = 1


@contextlib.contextmanager
def catch_sigint() -> Iterator[None]:
    """While inside, Ctrl-C requests a stop (`request_stop`) instead of raising; a second
    one raises `KeyboardInterrupt` as usual. Only the main thread can catch signals."""
    global _stopped
    _stopped = False

    def handler(signum: int, frame: object) -> None:
        request_stop()
        signal.signal(signal.SIGINT, previous)  # a second Ctrl-C raises

    try:
        previous = signal.signal(signal.SIGINT, handler) or signal.default_int_handler
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def guard_parent(parent: int, stop: Any = None) -> None:
    """Run in a worker: die with `parent` (Linux), refuse writes once it is gone or once it
    asks for a stop (`stop`, its shared flag); leave Ctrl-C to the parent."""
    global _parent
    _parent = parent
    with contextlib.suppress(ValueError):
        # The terminal sends SIGINT to the whole group: a write in progress completes.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if stop is not None:
        share_stop(stop)
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _may_write() -> None:
    # Checked right before a write begins; past it, the write completes.
    if stop_requested():
        raise Interrupted("interrupted")
    if _parent is not None and os.getppid() != _parent:
        raise ParentGone(f"parent process {_parent} has ended")


def replace_file(path: Path, data: bytes, *, expected: bytes | None) -> None:
    """Give `path` the bytes `data`, if it still holds `expected` (None: whatever it holds).

    A symlink is written through to its target. Raises `ChangedOnDisk`, `ParentGone`, or
    `OSError` (a read-only file is `PermissionError`), `Interrupted`; on any of them the file
    is unchanged. `PartWritten` when an in-place write failed and could not be undone.
    """
    _may_write()
    target = Path(os.path.realpath(path))
    if not os.stat(target).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        # root could write it anyway; a file nobody may write was made so on purpose
        raise PermissionError(errno.EACCES, "the file is read-only")
    fd = os.open(target, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        old = _read_all(fd)
        if expected is not None and old != expected:
            raise ChangedOnDisk(str(path))
        if info.st_nlink > 1:
            _write_in_place(fd, data, old)
            return
        if not _replace_atomically(target, data, info, expected, fd):
            # the owner, group or an xattr cannot be given to a new inode
            _write_in_place(fd, data, old)
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
        _may_write()
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


def _write_in_place(fd: int, data: bytes, old: bytes) -> None:
    """Overwrite the inode behind `fd` (holding `old`) with `data`, or leave it holding `old`.

    The space is reserved before the first byte changes, so a full disk stops the write
    before it begins; any other failure puts `old` back (it needs no new space).
    """
    _may_write()
    if len(data) > len(old):
        try:
            os.posix_fallocate(fd, 0, len(data))
        except OSError as exc:
            # Only zeros past the old end were added, if any: cut them off again.
            _put_back(fd, old, exc, write=False)
            if exc.errno not in (errno.EOPNOTSUPP, errno.ENOTSUP, errno.EINVAL):
                raise
    try:
        _pwrite_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    except OSError as exc:
        _put_back(fd, old, exc, write=True)
        raise


def _pwrite_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        offset += os.pwrite(fd, view[offset:], offset)


def _put_back(fd: int, old: bytes, cause: OSError, *, write: bool) -> None:
    try:
        if write:
            _pwrite_all(fd, old)
        if os.fstat(fd).st_size != len(old):
            os.ftruncate(fd, len(old))
        os.fsync(fd)
    except OSError as again:
        raise PartWritten(
            f"{os.strerror(cause.errno or 0)}, and its old bytes could not be put back "
            f"({os.strerror(again.errno or 0)})"
        ) from cause


def _copy_xattrs(source: int, fd: int) -> bool:
    """Give `fd` exactly the extended attributes of `source` (ACLs, labels, capabilities);
    False where the new inode cannot hold one (the caller then writes in place)."""
    try:
        names = os.listxattr(source)
    except OSError as exc:
        if exc.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        names = []  # the file system has none
    with contextlib.suppress(OSError):
        for name in os.listxattr(fd):  # inherited: a default ACL, a label
            if name not in names:
                try:
                    os.removexattr(fd, name)
                except OSError:
                    if not name.startswith("security."):  # a label the kernel assigns
                        return False
    try:
        for name in names:
            os.setxattr(fd, name, os.getxattr(source, name))
    except OSError:  # ENOTSUP, EPERM (trusted.*, security.capability), EACCES (SELinux)
        return False
    return True


def _replace_atomically(
    target: Path, data: bytes, info: os.stat_result, expected: bytes | None, source: int
) -> bool:
    """Rename a full new inode over `target` (open as `source`); False when its owner,
    group or an extended attribute cannot be kept."""
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
        view = memoryview(data)
        written = 0
        while written < len(data):
            written += os.write(fd, view[written:])
        # After the bytes (a write drops file capabilities), before the mode (which sets
        # the ACL mask to the group bits, as the original's are).
        if not _copy_xattrs(source, fd):
            return False
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
        os.fsync(fd)
        _may_write()
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
