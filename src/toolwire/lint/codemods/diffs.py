"""The patches `toolwire migrate --diff` prints: bytes in, bytes out, as git writes them."""

from __future__ import annotations

import difflib
import io
import os
import re

__all__ = ["git_quote", "unified_diff"]


def unified_diff(name: str, old: bytes, new: bytes) -> bytes:
    """A patch of the file's bytes, lines split at `\\n` only, as `git apply` and `patch` do."""
    out = []
    label = os.fsencode(name)
    for line in difflib.diff_bytes(
        difflib.unified_diff,
        io.BytesIO(old).readlines(),
        io.BytesIO(new).readlines(),
        fromfile=git_quote(b"a/" + label),
        tofile=git_quote(b"b/" + label),
    ):
        out.append(line if line.endswith(b"\n") else line + b"\n\\ No newline at end of file\n")
    return b"".join(out)


_GIT_ESCAPES = {7: b"\\a", 8: b"\\b", 9: b"\\t", 10: b"\\n", 11: b"\\v", 12: b"\\f", 13: b"\\r"}
_GIT_ESCAPES |= {ord('"'): b'\\"', ord("\\"): b"\\\\"}
_GIT_PLAIN = re.compile(rb'[^\x00-\x1f"\\\x7f-\xff]*')


def git_quote(name: bytes) -> bytes:
    """A diff header's file name as git writes it: as is when plain, else C-quoted
    (`"a/x\\ny.py"`, octal for other control and non-ASCII bytes), as `git apply` reads it."""
    if _GIT_PLAIN.fullmatch(name):
        # GNU patch ends an unquoted name at a space unless a tab (diff's date field) follows
        return name + b"\t" if b" " in name else name
    out = [b'"']
    for byte in name:
        if byte in _GIT_ESCAPES:
            out.append(_GIT_ESCAPES[byte])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(b"\\%03o" % byte)
        else:
            out.append(bytes((byte,)))
    out.append(b'"')
    return b"".join(out)
