"""The LibCST command class both codemods share: their options and the config those
resolve to (`python -m libcst.tool codemod ...`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand

from toolwire.lint.config import Config, load_config, resolver


def resolve_config(
    config: Config | None,
    config_file: str | None,
    filename: str | None,
    methods: Sequence[str] | None = None,
    result_class: str | None = None,
) -> Config:
    """The explicit config, else `--toolwire-config`, else the nearest pyproject; then overrides."""
    if config is None:
        fixed = Path(config_file) if config_file else None
        if fixed is None and not filename:
            config = load_config(None)
        else:
            config = resolver(fixed)(Path(filename or "-"))
    changes: dict[str, object] = {}
    if methods:
        changes["tool_methods"] = tuple(dict.fromkeys(methods))
    if result_class:
        changes["result_classes"] = (result_class,)
    return config.with_overrides(**changes) if changes else config


class ToolwireCommand(VisitorBasedCodemodCommand):
    """What both codemods share: their options, and the config those resolve to."""

    def __init__(
        self,
        context: CodemodContext,
        method: Sequence[str] | None,
        result_class: str | None,
        config_file: str | None,
        config: Config | None,
    ) -> None:
        super().__init__(context)
        self._config = config
        self._options = (method, result_class, config_file)

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--method",
            action="append",
            default=None,
            help="a tool method name (repeatable; default: tool-methods from the config)",
        )
        arg_parser.add_argument(
            "--result-class",
            default=None,
            help="dotted name of the result class (default: result-class from the config)",
        )
        arg_parser.add_argument(
            "--toolwire-config",
            dest="config_file",
            default=None,
            help="the pyproject.toml or toolwire.toml to read (default: the nearest one)",
        )

    @property
    def config(self) -> Config:
        method, result_class, config_file = self._options
        self._config = resolve_config(
            self._config, config_file, self.context.filename, method, result_class
        )
        self._options = (None, None, None)
        return self._config
