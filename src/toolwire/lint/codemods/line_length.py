"""The returns migrate wraps, kept within the project's line length as black keeps them.

`return ToolResult.text(X)` that no longer fits is split inside its brackets, black's
right-hand split: the call's opening bracket ends the line, `X` goes alone on the next
one, one indentation deeper, and the closing bracket on its own line. Only a line that
migrate made long is touched. The limit is `line-length` of `[tool.ruff]` (or
`[tool.black]`) in the nearest `pyproject.toml`, else 88, the default of both.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

__all__ = ["DEFAULT", "fit_lines", "line_length"]

DEFAULT = 88
_FACTORIES = ("text", "error")


@functools.cache
def _limit_in(directory: Path) -> int:
    for folder in (directory, *directory.parents):
        pyproject = folder / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            tools = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (OSError, UnicodeError, tomllib.TOMLDecodeError):
            return DEFAULT
        for name in ("ruff", "black"):
            value = tools.get(name, {}).get("line-length") if isinstance(tools, dict) else None
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
        return DEFAULT  # the nearest pyproject is the project's, as ruff and black read it
    return DEFAULT


def line_length(path: Path) -> int:
    """The line length of the project holding `path`."""
    return _limit_in(path.resolve().parent)


def fit_lines(before: str, after: cst.Module, code: str, path: Path) -> str:
    """The source of `after` (which is `code`) with each wrapped return that migrate made
    too long split as black splits it."""
    limit = line_length(path)
    old = set(before.splitlines())
    long = {
        number
        for number, line in enumerate(code.splitlines(), 1)
        if len(line) > limit and line not in old
    }
    if not long:
        return code
    wrapper = MetadataWrapper(after, unsafe_skip_copy=True)
    return wrapper.visit(_Split(long, after.default_indent)).code


class _Split(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, lines: set[int], indent: str) -> None:
        super().__init__()
        self._lines = lines
        self._indent = indent

    def leave_Return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        position = self.get_metadata(PositionProvider, original_node)
        call = updated_node.value
        if (
            position.start.line not in self._lines
            or position.start.line != position.end.line
            or not isinstance(call, cst.Call)
            or not isinstance(call.func, cst.Attribute)
            or call.func.attr.value not in _FACTORIES
            or len(call.args) != 1
            or call.args[0].keyword is not None
            or call.args[0].star != ""
            or call.args[0].comma != cst.MaybeSentinel.DEFAULT
        ):
            return updated_node
        return updated_node.with_changes(
            value=call.with_changes(
                whitespace_before_args=_break(self._indent),
                args=[call.args[0].with_changes(whitespace_after_arg=_break(""))],
            )
        )


def _break(indent: str) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets; the next line at the block's indentation plus `indent`."""
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(),
        empty_lines=[],
        indent=True,
        last_line=cst.SimpleWhitespace(indent),
    )
