"""The `toolwire` command. Each subcommand lives in `toolwire.lint.commands`; this is the shell."""

from __future__ import annotations

import gc
import importlib
import sys
from typing import TYPE_CHECKING

# Start-up makes many objects and almost no garbage: young collections would only walk the
# modules being imported (about 3% of a one-file check). `check` tunes it so again for its run.
gc.set_threshold(100_000, 50, 100)

import click  # noqa: E402

from toolwire import __version__  # noqa: E402

if TYPE_CHECKING:
    from toolwire.lint.catalog import Rule

# Subcommands are imported on first use so that `toolwire rules` does not load libcst.
_LAZY = {
    "check": "toolwire.lint.commands.check",
    "migrate": "toolwire.lint.commands.migrate",
    "init": "toolwire.lint.commands.init",
}


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _LAZY:
            try:
                module = importlib.import_module(_LAZY[cmd_name])
            except ModuleNotFoundError as exc:
                if exc.name != _LAZY[cmd_name]:
                    raise
                return None
            command = getattr(module, "command", None)
            return command if isinstance(command, click.Command) else None
        return super().get_command(ctx, cmd_name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolwire")
def main() -> None:
    """Keep LLM tool artifacts off the provider wire."""


@main.command("rules")
def rules_command() -> None:
    """List the rule catalog."""
    rules = _catalog()
    rows = [(r.code, r.family, r.name, ",".join(r.layers), r.fix or "") for r in rules.values()]
    header = ("code", "family", "name", "layers", "fix")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


@main.command("explain")
@click.argument("code")
def explain_command(code: str) -> None:
    """Show one rule: what it does, why, and its examples."""
    from toolwire.lint.catalog import nearest

    rules = _catalog()
    rule = rules.get(code.upper())
    if rule is None:
        hint = nearest(code)
        suggestion = f"; did you mean {', '.join(hint)}?" if hint else ""
        raise click.UsageError(f"unknown rule code {code!r}{suggestion}")
    click.echo(f"{rule.code} {rule.name} ({rule.family})")
    fix = f"; fix: toolwire migrate --codemod {rule.fix}" if rule.fix else ""
    click.echo(f"layers: {', '.join(rule.layers)}{fix}")
    click.echo("")
    click.echo(rule.body.strip())


def _catalog() -> dict[str, Rule]:
    # Loaded here, not at start-up: `check` and `migrate` do not need the catalog.
    from toolwire.lint.catalog import CatalogError, catalog

    try:
        return catalog()
    except CatalogError as exc:
        click.echo(f"toolwire: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
