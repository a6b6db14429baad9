"""`toolwire check --add-noqa`: a `# noqa: TWnnn` comment on every line with a finding, as
ruff's `--add-noqa` does.

The comment goes where flake8, ruff and `toolwire check` all read it: the finding's line,
or for a statement that spans lines without brackets (a multi-line string, a backslash
continuation) its last line (`toolwire.lint.suppressions`). Codes merge into an existing
`# noqa: ...` comment; a line without a finding is never touched.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import click

from toolwire.lint import writes
from toolwire.lint.engine import decode, source_lines
from toolwire.lint.files import STDIN
from toolwire.lint.findings import Finding, escape
from toolwire.lint.suppressions import Suppressions, split_codes

UNREADABLE = "TW000"
_LEADING_CODES = re.compile(r"[A-Z]+[0-9]+(?:,?[ \t]*[A-Z]+[0-9]+)*", re.I)
_PIECE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def with_noqa(data: bytes, findings: Iterable[Finding]) -> tuple[bytes, int] | None:
    """`data` with the comments added, and how many lines changed; None when it cannot be
    read as Python source or the result would not parse."""
    text, _ = decode(data, "")
    if text is None:
        return None
    lines = source_lines(text)
    comments = Suppressions(lines, text)
    wanted: dict[int, set[str]] = defaultdict(set)
    for finding in findings:
        if 0 < finding.line <= len(lines):
            wanted[comments.end_line(finding.line)].add(finding.code)
    existing = {d.line: d for d in comments.directives() if d.kind == "noqa"}
    pieces = _PIECE.findall(text)
    if len(pieces) != len(lines):
        return None
    changed = 0
    for number, codes in sorted(wanted.items()):
        piece = pieces[number - 1]
        body = piece.rstrip("\r\n")
        ending = piece[len(body) :]
        directive = existing.get(number)
        if directive is not None:
            have = split_codes(lines[number - 1][directive.start : directive.end])
            new = sorted(c for c in codes if not any(c.startswith(h) for h in have))
            if not new:
                continue
            # After the leading codes, which flake8 and ruff read, not after words that
            # only our pattern takes for codes (`noqa: E501 long URL`).
            lead = _LEADING_CODES.match(body, directive.start)
            at = lead.end() if lead else directive.start
            added = ", ".join(new)
            body = body[:at] + (", " + added if lead else added + ", ") + body[at:]
        else:
            body = body.rstrip() + "  # noqa: " + ", ".join(sorted(codes))
        pieces[number - 1] = body + ending
        changed += 1
    if not changed:
        return data, 0
    result = "".join(pieces)
    if not _parses(result):
        return None
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return result.encode(encoding), changed


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def add_noqa(findings: list[Finding]) -> tuple[list[Finding], bool] | int:
    """Write the comments; the findings left to report (input errors), or exit status 2
    when a file could not be written."""
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.code != UNREADABLE and finding.path != STDIN:
            by_path[finding.path].append(finding)
    lines = files = 0
    failed = False
    for path, found in by_path.items():
        problem = _add_to(Path(path), found)
        if isinstance(problem, str):
            click.echo(f"toolwire: cannot add noqa comments to {escape(path)}: {problem}", err=True)
            failed = True
        elif problem:
            lines += problem
            files += 1
    noun = "noqa comment" if lines == 1 else "noqa comments"
    where = f" in {files} file{'s' if files != 1 else ''}" if files else ""
    click.echo(f"toolwire: added {lines} {noun}{where}", err=True)
    if failed:
        return 2
    return [f for f in findings if f.code == UNREADABLE], True


def _add_to(path: Path, findings: list[Finding]) -> int | str:
    """How many lines of `path` got a comment, or why none could be written."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return str(exc.strerror or exc)
    done = with_noqa(data, findings)
    if done is None:
        return "the file would not parse afterwards"
    new, changed = done
    if not changed:
        return 0
    try:
        writes.replace_file(path, new, expected=data)
    except writes.ChangedOnDisk:
        return "it changed on disk meanwhile"
    except (OSError, writes.Interrupted, writes.ParentGone, writes.PartWritten) as exc:
        return str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
    return changed
