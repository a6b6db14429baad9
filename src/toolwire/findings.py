"""What every check produces and every reporter consumes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
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

    def as_text(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"


def unreadable(path: str, message: str, line: int = 1, column: int = 1) -> Finding:
    """TW000: input that cannot be read, decoded or parsed."""
    return Finding(path, line, column, "TW000", message, line, column)
