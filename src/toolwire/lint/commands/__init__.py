"""One module per `toolwire` subcommand; each exposes a click `command`."""

from __future__ import annotations

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
