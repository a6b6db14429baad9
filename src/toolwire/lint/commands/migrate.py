"""`toolwire migrate`: run the codemods over files, or show (`--diff`) or test (`--check`).

Exit codes: 0 done (or nothing to change); 1 `--check` found changes to make; 2 usage,
config or input errors, or a file changed on disk during the run (a TW000 line on stderr
for each). 2 wins over 1. 130: interrupted (Ctrl-C); what was changed before is listed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from toolwire.lint import writes
from toolwire.lint.codemods.runner import CODEMODS, FileOutcome, Mode, Summary, migrate_paths
from toolwire.lint.commands import (
    PROGRESS_ABOVE,
    color_option,
    colour_diff,
    config_option,
    per_core,
    show_progress,
    use_colour,
)
from toolwire.lint.config import ConfigError, ConfigResolver

__all__ = ["command"]


def _codemods(value: str) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    unknown = [c for c in chosen if c not in CODEMODS]
    if unknown or not chosen:
        raise click.BadParameter(
            f"unknown codemod {unknown[0]!r}" if unknown else "no codemod given",
            param_hint="--codemod",
        )
    return chosen


@click.command("migrate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--diff", "show_diff", is_flag=True, help="Print unified diffs; write nothing.")
@click.option(
    "--check", "check_only", is_flag=True, help="Write nothing; exit 1 if anything would change."
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Worker processes (0: one per core).",
)
@click.option(
    "--codemod",
    "codemod",
    default=",".join(CODEMODS),
    show_default=True,
    help="Comma-separated codemods to run.",
)
@click.option(
    "--method",
    "methods",
    multiple=True,
    help="A tool method name (repeatable); replaces tool-methods.",
)
@click.option(
    "--result-class", default=None, help="Dotted name of the result class; replaces result-class."
)
@config_option()
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
@color_option("the --diff output")
def command(
    paths: tuple[str, ...],
    show_diff: bool,
    check_only: bool,
    jobs: int,
    codemod: str,
    methods: tuple[str, ...],
    result_class: str | None,
    config_file: Path | None,
    output_format: str,
    color: str,
) -> None:
    """Migrate tools to return ToolResult, and wire sinks to take only `.content`.

    PATH defaults to the current directory. Files are written atomically; a file that
    would not parse afterwards is never written.
    """
    if show_diff and check_only:
        raise click.UsageError("--diff and --check are exclusive")
    codemods = _codemods(codemod)
    if "-" in paths:
        raise click.UsageError("migrate rewrites files in place: stdin (`-`) is not supported")
    overrides: dict[str, object] = {}
    if methods:
        for method in methods:
            if not method.isidentifier():
                raise click.BadParameter(f"{method!r} is not a method name", param_hint="--method")
        overrides["tool_methods"] = tuple(dict.fromkeys(methods))
    if result_class:
        parts = result_class.split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts):
            raise click.BadParameter(
                f"{result_class!r} is not a dotted name", param_hint="--result-class"
            )
        overrides["result_classes"] = (result_class,)
    configs = ConfigResolver(config_file, overrides)
    mode: Mode = "diff" if show_diff else "check" if check_only else "write"
    try:
        if config_file is not None:
            configs(Path("."))
        # Ctrl-C stops the run between writes, never inside one, and the summary still
        # says what was written.
        colour = use_colour(color)
        with writes.catch_sigint(), contextlib.ExitStack() as bars:
            live = _Live(bars, mode == "diff" and output_format == "text", colour)
            summary = migrate_paths(
                paths or (".",),
                configs,
                mode=mode,
                codemods=codemods,
                jobs=per_core(jobs),
                progress=live.start,
                on_file=live.file,
            )
    except ConfigError as exc:
        click.echo(f"toolwire: {exc}", err=True)
        sys.exit(2)
    sys.exit(_report(summary, output_format, colour, streamed=live.stream))


class _Live:
    """What a run shows while it goes. A run of many files says so at once on stderr (pass
    one reads every file before the first result exists): a bar on a terminal, as check's,
    else one line. With --diff, each file's patch as soon as it and those before are done,
    unless stdout shares the terminal with the bar."""

    def __init__(self, bars: contextlib.ExitStack, stream: bool, colour: bool) -> None:
        self.bars, self.stream, self.colour = bars, stream, colour

    def start(self, files: int, steps: int) -> Callable[[int], None]:
        if files <= PROGRESS_ABOVE:
            return lambda done: None
        label = f"toolwire: migrating {files} files"
        if not show_progress(files):
            click.echo(f"{label}...", err=True)
            return lambda done: None
        self.stream = self.stream and not sys.stdout.isatty()
        bar = click.progressbar(length=steps, label=label, file=sys.stderr)
        return self.bars.enter_context(bar).update

    def file(self, outcome: FileOutcome) -> None:
        if self.stream and outcome.changed:
            try:
                _write_patch(outcome, self.colour)
                sys.stdout.flush()
            except OSError as exc:  # `| head`: the reader is gone; the run goes on
                if not isinstance(exc, BrokenPipeError):
                    click.echo(f"toolwire: cannot write the patch: {exc.strerror or exc}", err=True)
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write_patch(outcome: FileOutcome, colour: bool) -> None:
    # The patch is the file's own bytes (any encoding, BOM, CR), so that `git apply` and
    # `patch` take it; only a terminal gets it decoded.
    if colour:
        click.echo(colour_diff(outcome.diff.decode("utf-8", "replace")), nl=False, color=True)
    else:
        click.echo(outcome.diff, nl=False)


def _report(summary: Summary, output_format: str, colour: bool, *, streamed: bool = False) -> int:
    errors = summary.all_errors
    for error in errors:
        click.echo(error.as_text(), err=True)
    if output_format == "json":
        click.echo(json.dumps(summary.as_json(), indent=2))
    else:
        if summary.mode == "diff" and not streamed:
            for outcome in summary.changed:
                _write_patch(outcome, colour)
        # With --diff the patch owns stdout; the summary goes to stderr.
        to_err = summary.mode == "diff"
        for line in summary.as_text():
            click.echo(line, err=to_err)
    if summary.interrupted:
        return 130
    if errors:
        return 2
    if summary.mode == "check" and summary.changed:
        return 1
    return 0
