"""TW001: a suppression comment naming a TW code that suppresses nothing (ruff's RUF100).

Not a node visitor: it reads the other checks' findings before suppression, so the engine
(`check_source`) and the flake8 plugin call `unused` once per module.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwire.lint.checks.base import Check
from toolwire.lint.config import Config
from toolwire.lint.findings import Finding
from toolwire.lint.messages import message
from toolwire.lint.suppressions import TW_CODE, Suppressions

CODE = "TW001"
_NOT_JUDGED = frozenset({CODE, "TW000"})  # TW000 is input, never suppressed; TW001 itself


class UnusedSuppression(Check):
    code = CODE


def unused(
    findings: Sequence[Finding], comments: Suppressions, config: Config, path: str
) -> list[Finding]:
    """A TW001 for each full, selected TW code of a comment that covers no finding.

    `findings` are the module's before any suppression (flake8's or ours).
    """
    if not config.enabled(CODE) or not comments.marked:
        return []
    used: set[tuple[int, str]] = set()
    for finding in findings:
        first, last = comments.range(finding.line)
        used.update((line, finding.code) for line in range(first, last + 1))
    found = []
    for directive in comments.directives():
        text = comments.lines[directive.line - 1].upper()
        for code in directive.codes:
            if not TW_CODE.fullmatch(code) or code in _NOT_JUDGED or not config.enabled(code):
                continue
            if (directive.line, code) in used:
                continue
            column = text.find(code, directive.start, directive.end) + 1
            kind = "# noqa" if directive.kind == "noqa" else "# toolwire: ignore"
            text_ = message(CODE, "unused", directive=kind, named=code)
            end = column + len(code)
            found.append(Finding(path, directive.line, column, CODE, text_, directive.line, end))
    return found
