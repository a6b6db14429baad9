"""One module per `toolwire` subcommand; each exposes a click `command`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

_F = TypeVar("_F", bound=Callable[..., Any])


def config_option() -> Callable[[_F], _F]:
    """`--config FILE`, the same for every subcommand."""
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="The pyproject.toml or toolwire.toml to use instead of the nearest one of each file.",
    )


PROGRESS_ABOVE = 50  # files: a shorter run shows no progress


def show_progress(files: int) -> bool:
    """A progress bar on stderr: a long run, on a terminal, outside CI."""
    return files > PROGRESS_ABOVE and sys.stderr.isatty() and not os.environ.get("CI")


def per_core(jobs: int) -> int:
    """`--jobs 0`: one worker per core this process may run on (`taskset`, a container's
    CPU set), not per core of the machine."""
    if jobs:
        return jobs
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def color_option(what: str) -> Callable[[_F], _F]:
    """`--color auto|always|never`, as ruff's: `what` says what it colours."""
    return click.option(
        "--color",
        type=click.Choice(["auto", "always", "never"]),
        default="auto",
        show_default=True,
        help=f"Colour {what}. auto: on a terminal, unless NO_COLOR is set.",
    )


def use_colour(color: str) -> bool:
    if color != "auto":
        return color == "always"
    # https://no-color.org: set and not empty turns colour off; a flag overrides it.
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def colour_diff(diff: str) -> str:
    out = []
    for line in diff.splitlines(keepends=True):
        if line.startswith(("+++", "---")):
            out.append(click.style(line, bold=True))
        elif line.startswith("+"):
            out.append(click.style(line, fg="green"))
        elif line.startswith("-"):
            out.append(click.style(line, fg="red"))
        elif line.startswith("@@"):
            out.append(click.style(line, fg="cyan"))
        else:
            out.append(line)
    return "".join(out)
