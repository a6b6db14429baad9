"""Where `toolwire init` writes: the table added to `pyproject.toml`, never clobbering.

tomlkit adds the table beside the other `[tool.*]` tables (comments, layout and line
endings kept), and an existing table is replaced (only that table) with `--force`. The
result is read back: the rest of the file must load exactly as before.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from toolwire.lint.commands.init.rendering import render_table
from toolwire.lint.config import ConfigError

__all__ = ["InitError", "new_text"]


class InitError(Exception):
    """A reason to stop without writing (exit 2)."""


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """What the file says, without `[tool.toolwire]`: must not change when init writes."""
    copy = dict(data)
    tool = dict(copy.get("tool", {}))
    tool.pop("toolwire", None)
    if tool:
        copy["tool"] = tool
    else:
        copy.pop("tool", None)
    return copy


def new_text(old: str | None, table: Table, *, force: bool, name: str) -> str:
    """`old` with the table added (or, with `force`, in place of the old one, by tomlkit):
    the user's comments, layout, line endings and other tables are kept."""
    if old is None:
        return render_table(table)
    newline = "\r\n" if "\r\n" in old else "\n"
    if old and not old.endswith(("\n", "\r")):
        old += newline
    try:
        data = tomllib.loads(old.removeprefix("\ufeff"))
        document = tomlkit.parse(old)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise InitError(f"{name} is not valid TOML ({exc}); fix it first") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise InitError(
            str(ConfigError(Path(name), "tool", f"expected a table, got {tool!r}", in_table=False))
        )
    if "toolwire" not in tool:
        # After the last byte, so every byte of the file stays as it was: the table is a
        # whole document of its own (tomlkit's), and the result is checked below.
        text = old + (newline if old.strip() else "") + render_table(table, newline)
    elif not force:
        raise InitError(
            f"{name} already has a [tool.toolwire] table; edit it, or run `toolwire init "
            "--force` to replace that table (and only it)"
        )
    else:
        # The table parsed from its own text keeps `newline` in its trivia.
        fresh = tomlkit.parse(render_table(table, newline))["tool"]["toolwire"]
        _replace(document, fresh, name)
        text = document.as_string()
    try:
        written = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError:
        written = {}
    if (
        _plain(written) != _plain(data)
        or written.get("tool", {}).get("toolwire")
        != (tomllib.loads(render_table(table))["tool"]["toolwire"])
    ):
        raise InitError(f"{name}: could not add the table without touching the rest")
    return text


def _replace(document: TOMLDocument, fresh: Table, name: str) -> None:
    tool = document["tool"]
    old = tool["toolwire"]
    if not isinstance(old, Table) or old.is_super_table():
        raise InitError(
            f"{name}: [tool.toolwire] is not written as its own table (inline or dotted keys); "
            "--force only replaces a `[tool.toolwire]` section, edit this one by hand"
        )
    # tomlkit files the comments and blank lines above the next header under this table:
    # they belong to the next one, so they move to the end of the new table (in place of
    # the blank line tomlkit adds there). At the end of the file they are this table's.
    body = old.value.body
    tail = len(body)
    while tail and body[tail - 1][0] is None:
        tail -= 1
    last = document.as_string().rstrip().endswith(old.as_string().rstrip())
    moved = [] if last else body[tail:]
    tool["toolwire"] = fresh
    if moved and fresh.value.body and isinstance(fresh.value.body[-1][1], Whitespace):
        fresh.value.body.pop()
    fresh.value.body.extend(moved)
