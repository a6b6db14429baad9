"""The returns migrate wraps, kept within the project's line length as black keeps them.

`return ToolResult.text(X)` that no longer fits is split inside its brackets, black's
right-hand split: the call's opening bracket ends the line, `X` goes alone on the next
one, one indentation deeper, and the closing bracket on its own line. Only a line that
migrate made long is touched. The limit is `line-length` of `[tool.ruff]` (or
`[tool.black]`) in the nearest `pyproject.toml`, else 88, the default of both.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeGuard, TypeVar, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

__all__ = ["DEFAULT", "fit_lines", "line_length"]

DEFAULT = 88
_N = TypeVar("_N", bound=cst.CSTNode)
_FACTORIES = ("text", "error")


@functools.cache
def _limit_in(folder: Path) -> int:
    # folder by folder, each asked once a run: a tree's folders share their parents
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        return DEFAULT if folder.parent == folder else _limit_in(folder.parent)
    try:
        tools = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
    except (OSError, UnicodeError, tomllib.TOMLDecodeError):
        return DEFAULT
    for name in ("ruff", "black"):
        value = tools.get(name, {}).get("line-length") if isinstance(tools, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return DEFAULT  # the nearest pyproject is the project's, as ruff and black read it


def line_length(path: Path) -> int:
    """The line length of the project holding `path`."""
    parent = path.parent
    if not parent.is_absolute() or path.is_symlink():
        return _limit_in(path.resolve().parent)
    # the same as `path.resolve().parent` where `path` itself is no link: a run's files
    # share a few folders, each resolved once
    return _limit_in(_resolved(parent))


@functools.lru_cache(maxsize=256)
def _resolved(folder: Path) -> Path:
    return folder.resolve()


def fit_lines(
    before: str,
    after: cst.Module,
    code: str,
    path: Path,
    parts: Sequence[str] | None = None,
    generate: Callable[[cst.Module], str] | None = None,
    original: cst.Module | None = None,
) -> str:
    """The source of `after` (which is `code`) with each wrapped return that migrate made
    too long split as black splits it. `parts`: the only text of `code` that is not
    `before`'s, when known (`splice`): a line outside them is not new. `generate` makes
    the code of the fitted tree (`Module.code`, unless told a cheaper way). `original`:
    the tree `after` was rewritten from, sharing the statements it left (with `parts`)."""
    limit = line_length(path)
    if parts is not None:
        fresh = {line for part in parts for line in part.splitlines() if len(line) > limit}
        if not fresh or fresh.issubset(before.splitlines()):
            return code
    old = set(before.splitlines())
    lines = code.splitlines()
    long = {number for number, line in enumerate(lines, 1) if len(line) > limit and line not in old}
    if not long:
        return code
    by_text = _ByText({lines[n - 1] for n in long}, after, bool(_ODD_BREAKS.search(code)))
    if parts is not None:
        # a statement of `before` left whole holds only lines of `before`: none is long
        by_text.kept = _compound_ids(original) if original is not None else set()
    fitted = after.visit(by_text)
    if not by_text.unsure:
        return code if fitted is after else (generate or _code)(fitted)
    wrapper = MetadataWrapper(after, unsafe_skip_copy=True)
    return wrapper.visit(_Split(long, after.default_indent)).code


def _compound_ids(module: cst.Module) -> set[int]:
    """The ids of the module's compound statements, at every depth."""
    found: set[int] = set()
    stack: list[Sequence[cst.BaseStatement]] = [module.body]
    while stack:
        for statement in stack.pop():
            if not isinstance(statement, cst.BaseCompoundStatement):
                continue
            found.add(id(statement))
            clauses: list[object] = [statement.body, getattr(statement, "orelse", None)]
            clauses += [*getattr(statement, "handlers", ()), getattr(statement, "finalbody", None)]
            clauses += getattr(statement, "cases", ())
            for clause in clauses:
                if isinstance(clause, cst.If):
                    stack.append([clause])
                    continue
                block = clause.body if isinstance(clause, _CLAUSES) else clause
                if isinstance(block, cst.IndentedBlock):
                    stack.append(block.body)
    return found


_CLAUSES = (cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)


def _code(module: cst.Module) -> str:
    return module.code


# Where `str.splitlines` cuts a line and the codegen does not: line numbers would differ.
_ODD_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]|\r(?!\n)")
_BLOCKS: tuple[type[cst.CSTNode], ...] = (cst.Module, cst.BaseCompoundStatement, cst.IndentedBlock)
_BLOCKS += (cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)
# isinstance of `_BLOCKS` by node type: LibCST's classes are ABCs, slow to test one by one
_IS_BLOCK: dict[type, bool] = {}


class _ByText(cst.CSTTransformer):
    """`_Split` without positions (a full codegen), for the common case: a return alone on
    a one-line statement, whose line is its block's indentation and its own code, so
    that the text of that line says whether it is too long (a return alone that spans
    lines is left, as `_Split` leaves it). Only statements are walked;
    a case not covered sets `unsure`, and `_Split` decides instead."""

    def __init__(self, long: set[str], module: cst.Module, unsure: bool) -> None:
        super().__init__()
        self._long = long
        self._module = module
        self._indents: list[str] = []
        self.unsure = unsure
        self.kept: set[int] = set()  # ids of compound statements known to hold no long line

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.kept:
            return False
        kind = type(node)
        if kind is cst.SimpleStatementSuite:
            suite = cast(cst.SimpleStatementSuite, node)
            self.unsure = self.unsure or any(_fits(s) for s in suite.body)
        elif kind is cst.IndentedBlock:
            block = cast(cst.IndentedBlock, node)
            indent = self._module.default_indent if block.indent is None else block.indent
            self._indents.append(indent)
        if self.unsure:
            return False
        found = _IS_BLOCK.get(kind)
        if found is None:
            found = _IS_BLOCK[kind] = isinstance(node, _BLOCKS)
        return found

    def on_leave(self, original_node: _N, updated_node: _N) -> _N:
        if type(original_node) is cst.IndentedBlock:
            self._indents.pop()
        if type(updated_node) is cst.SimpleStatementLine and not self.unsure:
            return cast(_N, self._line(cast(cst.SimpleStatementLine, updated_node)))
        return updated_node

    def _line(self, node: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        if not any(_fits(s) for s in node.body):
            return node
        own = self._module.code_for_node(node.with_changes(leading_lines=()))
        line = ("".join(self._indents) + own).splitlines()
        if len(line) != 1:
            # A return alone that spans lines is not black's case, as `_Split` finds too.
            self.unsure = self.unsure or len(node.body) != 1
            return node
        if line[0] not in self._long:
            return node
        indent = self._module.default_indent
        return node.with_changes(body=[_split(s, indent) if _fits(s) else s for s in node.body])


class _Split(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, lines: set[int], indent: str) -> None:
        super().__init__()
        self._lines = lines
        self._indent = indent

    def leave_Return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        position = self.get_metadata(PositionProvider, original_node)
        if (
            position.start.line not in self._lines
            or position.start.line != position.end.line
            or not _fits(updated_node)
        ):
            return updated_node
        return _split(updated_node, self._indent)


def _fits(node: cst.BaseSmallStatement) -> TypeGuard[cst.Return]:
    """A return of a factory call with one plain argument: the form black splits."""
    call = node.value if isinstance(node, cst.Return) else None
    return (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and call.func.attr.value in _FACTORIES
        and len(call.args) == 1
        and call.args[0].keyword is None
        and call.args[0].star == ""
        and call.args[0].comma == cst.MaybeSentinel.DEFAULT
    )


def _split(node: cst.Return, indent: str) -> cst.Return:
    call = node.value
    assert isinstance(call, cst.Call)
    return node.with_changes(
        value=call.with_changes(
            whitespace_before_args=_break(indent),
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
