"""What every check produces and every reporter consumes."""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from toolwire.lint.records import record

# What a TW000 stands for: input toolwire cannot read, a bug of toolwire's own, or a write
# that did not happen. Front-ends that can tell them apart branch on this, never on text.
Problem = Literal["input", "internal", "write"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape(text: str) -> str:
    """`text` safe for a terminal, a TOML comment or an annotation, and still faithful.

    Every character that `str.isprintable` rejects (control, format and bidi characters,
    line separators) becomes `\\n`, `\\xNN` or `\\uNNNN`; a byte of a file name that is not
    UTF-8 (decoded by the OS as a surrogate escape) becomes `\\xNN`, its value.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's surrogateescape of a byte >= 0x80
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


@record
class Finding:
    """One finding, located by characters (not bytes).

    `line` and `column` are 1-based; `end_line`/`end_column` mark the character just past
    the flagged expression (1-based, exclusive, as in SARIF). `fix` names the codemod that
    rewrites the flagged span (`tool-returns`, `wire-content`), when one does.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    end_line: int = 0
    end_column: int = 0
    fix: str | None = None
    problem: Problem | None = field(default=None, compare=False)  # TW000 only

    # Written out: a run makes a finding per finding (the record's own `__init__` loops over
    # the fields, for classes built a few times per run).
    def __init__(
        self,
        path: str,
        line: int,
        column: int,
        code: str,
        message: str,
        end_line: int = 0,
        end_column: int = 0,
        fix: str | None = None,
        problem: Problem | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "path", path)
        put(self, "line", line)
        put(self, "column", column)
        put(self, "code", code)
        put(self, "message", message)
        put(self, "end_line", end_line)
        put(self, "end_column", end_column)
        put(self, "fix", fix)
        put(self, "problem", problem)

    # Order, written out: a run sorts its findings, and `__lt__` is what sorting calls.
    def __lt__(self, other: Finding) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.path,
            self.line,
            self.column,
            self.code,
            self.message,
            self.end_line,
            self.end_column,
            self.fix,
        ) < (
            other.path,
            other.line,
            other.column,
            other.code,
            other.message,
            other.end_line,
            other.end_column,
            other.fix,
        )

    def __le__(self, other: Finding) -> bool:
        return self == other or self < other

    def __gt__(self, other: Finding) -> bool:
        return other < self

    def __ge__(self, other: Finding) -> bool:
        return self == other or other < self

    def as_text(self) -> str:
        """The text-format line; the path and message escaped (see `escape`)."""
        return f"{escape(self.path)}:{self.line}:{self.column}: {self.code} {escape(self.message)}"


def unreadable(path: str, message: str, line: int = 1, column: int = 1) -> Finding:
    """TW000: input that cannot be read, decoded or parsed."""
    return Finding(path, line, column, "TW000", message, line, column, problem="input")


def internal_error(path: str, message: str, line: int = 1, column: int = 1) -> Finding:
    """TW000 for a bug of toolwire's own on this file; the message says what broke."""
    text = f"internal error: {message}"
    return Finding(path, line, column, "TW000", text, line, column, problem="internal")


def not_written(path: str, message: str) -> Finding:
    """TW000: a change migrate made but did not write; the file is as it was."""
    return Finding(path, 1, 1, "TW000", message, 1, 1, problem="write")
