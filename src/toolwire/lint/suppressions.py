"""Suppression comments, read one way for `toolwire check`, `--add-noqa` and TW001.

`# noqa`, `# noqa: TW301`, `# toolwire: ignore` and `# toolwire: ignore[TW301]`. As in
flake8 and ruff, a statement that spans lines without brackets (a multi-line string, a
backslash continuation) is one range: a comment on any line of it covers a finding on any
other, and `--add-noqa` puts its comment on the range's last line. Inside brackets each
line is a range of its own (flake8 reads the lines between its NL/NEWLINE tokens).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator, Sequence
from functools import cache
from typing import NamedTuple

_NOQA = r"#\s*noqa(?::\s*(?P<codes>[A-Z]+\d*(?:[,\s]+[A-Z]+\d*)*))?"
_IGNORE = r"#\s*toolwire:\s*ignore(?:\[(?P<codes>[^\]]*)\])?"
# Every directive starts so: a module that imports toolwire but holds none is not tokenized.
_MAYBE = re.compile(r"#\s*(?:noqa|toolwire)", re.I)
TW_CODE = re.compile(r"TW\d{3}")


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    # Compiled on first use: `[A-Z]` under re.I costs about 4 ms to compile, and most
    # runs meet no comment on a line with a finding.
    return (("noqa", re.compile(_NOQA, re.I)), ("ignore", re.compile(_IGNORE, re.I)))


def split_codes(codes: str) -> list[str]:
    return [c.upper() for c in re.split(r"[,\s]+", codes.strip()) if c]


def covers(text: str, code: str) -> bool:
    """The comments of line `text` suppress `code`."""
    if "#" not in text:
        return False
    for _, pattern in _patterns():
        match = pattern.search(text)
        if match:
            codes = match["codes"]
            if codes is None or any(code.startswith(c) for c in split_codes(codes)):
                return True
    return False


class Directive(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """One suppression comment naming codes: where, which, and the codes' span in its line."""

    line: int
    kind: str  # "noqa" or "ignore"
    codes: tuple[str, ...]
    start: int
    end: int


class Suppressions:
    """The suppression comments of one module (`lines` as its tree numbers them)."""

    # A plain class: a dataclass compiles its methods from text at every start-up.
    __slots__ = ("_comments", "_marked", "_ranges", "lines", "text")

    def __init__(self, lines: Sequence[str], text: str) -> None:
        self.lines = lines
        self.text = text
        self._ranges: dict[int, tuple[int, int]] | None = None
        self._comments: dict[int, int] = {}  # line -> column
        self._marked: bool | None = None

    def suppressed(self, line: int, code: str) -> bool:
        if not 0 < line <= len(self.lines):
            return False
        if covers(self.lines[line - 1], code):
            return True
        if not self.marked:
            return False
        first, last = self.range(line)
        return any(covers(self.lines[n - 1], code) for n in range(first, last + 1) if n != line)

    @property
    def marked(self) -> bool:
        """The text may hold a suppression comment (most modules hold none)."""
        if self._marked is None:
            self._marked = bool(_MAYBE.search(self.text))
        return self._marked

    def range(self, line: int) -> tuple[int, int]:
        """The first and last line of the range holding `line`."""
        if self._ranges is None:
            self._ranges, self._comments = self._tokenize()
        return self._ranges.get(line, (line, line))

    def end_line(self, line: int) -> int:
        """Where a comment for a finding on `line` goes (`--add-noqa`)."""
        return self.range(line)[1]

    def directives(self) -> Iterator[Directive]:
        """Every suppression comment that names codes, in real comments only (not the text
        of a string that looks like one)."""
        if not self.marked:
            return
        self.range(1)
        for number, column in sorted(self._comments.items()):
            text = self.lines[number - 1] if number <= len(self.lines) else ""
            for kind, pattern in _patterns():
                match = pattern.search(text, column)
                if match and match["codes"] is not None:
                    codes = tuple(split_codes(match["codes"]))
                    yield Directive(number, kind, codes, match.start("codes"), match.end("codes"))

    def _tokenize(self) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
        ranges: dict[int, tuple[int, int]] = {}
        comments: dict[int, int] = {}
        first, last = 0, -1
        try:
            for token in tokenize.generate_tokens(io.StringIO(self.text, newline=None).readline):
                kind, (start, column), (end, _) = token.type, token.start, token.end
                if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
                    continue
                if kind == tokenize.COMMENT:
                    comments[start] = column
                first = start if last < 0 else min(first, start)
                last = max(last, end)
                if kind in (tokenize.NL, tokenize.NEWLINE):
                    if last > first:
                        ranges.update(dict.fromkeys(range(first, last + 1), (first, last)))
                    first, last = 0, -1
        except (tokenize.TokenError, SyntaxError):
            pass  # what was read so far stands; the rest is one line a range
        return ranges, comments
