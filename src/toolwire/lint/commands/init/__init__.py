"""`toolwire init`: write a commented `[tool.toolwire]` table, filled in from the code.

The scan (`scanning`) is read-only and uses `ast`: it finds tool methods (methods named
like tools, annotated `-> str` or returning a ToolResult), the message literals that
reach a provider (`{"role": "tool", ...}` and friends), the functions that build such a
message from a parameter (call-sink candidates) and the tool frameworks the code
imports (their presets). What it finds is printed and written into the table
(`rendering`), so the first `toolwire check` starts from facts, not from a template.

The file is never clobbered (`writing`): tomlkit adds the table beside the other
`[tool.*]` tables, and an existing table is replaced (only that table) with `--force`,
else the command exits 2. Names found in the code reach the file only escaped, inside
comments: a file name cannot write a key.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import click

from toolwire.lint.commands.init.rendering import (
    build_table,
    drop_wire_sinks,
    render_table,
    validate,
)
from toolwire.lint.commands.init.scanning import Scan, detect_frameworks, scan
from toolwire.lint.commands.init.writing import InitError, new_text
from toolwire.lint.config import ConfigError, read_config_text
from toolwire.lint.findings import escape
from toolwire.lint.writes import ChangedOnDisk, create_file, replace_file

__all__ = ["build_table", "command", "new_text", "render_table", "scan"]


def _report(found: Scan, echo: Callable[[str], None]) -> None:
    echo(f"tool methods ({len(found.tools)}):")
    for t in found.tools:
        echo(f"  {escape(t.place.path)}:{t.place.line}: {t.qualname} -> {escape(t.returns)}")
    for title, specs in (
        ("message-literal sinks", found.literals),
        ("call-sink candidates", found.call_sinks),
        ("egress-sink candidates", found.egress_sinks),
    ):
        echo(f"{title} ({len(specs)}):")
        for s in specs:
            echo(f"  {escape(s.place.path)}:{s.place.line}: {escape(s.spec)}")
    frameworks = detect_frameworks(found)
    echo(f"frameworks ({len(frameworks)}):")
    for name, evidence in frameworks.items():
        first = evidence[0]
        more = f" (and {len(evidence) - 1} more imports)" if len(evidence) > 1 else ""
        echo(
            f"  {escape(first.place.path)}:{first.place.line}: {name}: "
            f"imports {escape(first.module)}{more}"
        )
    for problem in found.unreadable:
        echo(f"  skipped {escape(problem)}")


@click.command("init")
@click.argument(
    "directory",
    default=".",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)
@click.option("--force", is_flag=True, help="Replace an existing [tool.toolwire] table.")
@click.option("--dry-run", is_flag=True, help="Print the table instead of writing it.")
def command(directory: Path, force: bool, dry_run: bool) -> None:
    """Write a [tool.toolwire] table into pyproject.toml, from a scan of the code.

    DIRECTORY (default: the current one) is scanned for tool methods, provider
    message literals and the tool frameworks it imports (their presets), and what is
    found goes into the table. The file is created when
    missing, appended to otherwise; an existing table is kept unless --force.
    Exit codes: 0 written, 2 errors (an existing table without --force, bad TOML).
    """
    target = directory / "pyproject.toml"
    found = scan(directory)
    table = build_table(found)
    try:
        validate(table, target)
    except ConfigError as exc:
        if exc.key != "wire-sinks":
            raise
        # Keep the facts, drop the sinks that do not resolve: the file must load.
        click.echo(f"toolwire: note: wire-sinks left empty: {exc}", err=True)
        drop_wire_sinks(table)
    _report(found, click.echo)
    if dry_run:
        click.echo("")
        click.echo(render_table(table), nl=False)
        return
    try:
        # Not read_text: newline translation would change the user's line endings.
        old = read_config_text(target) if os.path.lexists(target) else None
        text = new_text(old, table, force=force, name=str(target))
    except (InitError, ConfigError) as exc:
        click.echo(f"toolwire: {exc}", err=True)
        raise SystemExit(2) from None
    try:
        if old is None:
            create_file(target, text.encode("utf-8"))
        else:
            replace_file(target, text.encode("utf-8"), expected=old.encode("utf-8"))
    except (ChangedOnDisk, FileExistsError):
        name = escape(str(target))
        click.echo(f"toolwire: {name} changed during the run; run init again", err=True)
        raise SystemExit(2) from None
    except OSError as exc:
        click.echo(f"toolwire: cannot write {escape(str(target))}: {exc.strerror}", err=True)
        raise SystemExit(2) from None
    verb = "created" if old is None else ("replaced the table in" if force else "appended to")
    click.echo(f"toolwire: {verb} {target}")
