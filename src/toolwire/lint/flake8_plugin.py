"""The flake8 front-end: `flake8 --select TW`. flake8 parses; the plugin reuses its tree.

flake8 applies `# noqa` itself (TW001 judges those comments here); the table's
`per-file-ignores` are applied here, and with `force-exclude` a file its `exclude`
matches gets no finding. The config is the nearest
`[tool.toolwire]` table of each file, or `--toolwire-config FILE`; a bad table of a file
becomes one TW000 finding, never a crash; a bad `--toolwire-config` or TW code in
`--select` stops flake8 as a bad option.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn

from toolwire import __version__
from toolwire.lint.config import Config, ConfigError, code_problem, resolver
from toolwire.lint.engine import check_parsed, module_name, source_lines
from toolwire.lint.findings import Finding, internal_error, unreadable

_STDIN_NAMES = {"-", "stdin"}


@functools.cache
def _fixed(config_file: str | None, cwd: str) -> Path | None:
    """`--toolwire-config`, resolved once per run rather than once per file."""
    return (Path(cwd) / config_file).resolve() if config_file else None


class ToolwireChecker:
    name = "toolwire"
    version = __version__
    config_file: ClassVar[str | None] = None

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        self.tree = tree
        self.filename = filename
        self.lines = lines  # with their line endings: the analysis only searches them

    @classmethod
    def add_options(cls, manager: Any) -> None:
        manager.add_option(
            "--toolwire-config",
            default=None,
            parse_from_config=True,
            help="toolwire: the pyproject.toml or toolwire.toml to use instead of the nearest.",
        )

    @classmethod
    def parse_options(cls, options: Any) -> None:
        cls.config_file = getattr(options, "toolwire_config", None)
        _check_codes(options)
        if cls.config_file:
            # Known before any file: a bad one stops flake8 as a bad option does (a TW000
            # per file would be hidden by a `--select` without TW0).
            fixed = _fixed(cls.config_file, os.getcwd())
            try:
                resolver(fixed).load(fixed)
            except ConfigError as exc:
                _stop(f"--toolwire-config: {exc}")

    def config(self) -> Config | ConfigError:
        path = Path.cwd() / "-" if self.filename in _STDIN_NAMES else Path(self.filename)
        try:
            return resolver(_fixed(self.config_file, os.getcwd()))(path)
        except ConfigError as exc:
            return exc

    def findings(self) -> list[Finding]:
        config = self.config()
        if isinstance(config, ConfigError):
            return [unreadable(self.filename, f"bad toolwire config: {config}")]
        if not isinstance(self.tree, ast.Module):
            return []
        named = Path(self.filename) if self.filename not in _STDIN_NAMES else None
        if named is not None and config.force_exclude and config.excludes(named):
            return []  # flake8 names the files itself: `force-exclude` is how to skip them
        module = None if self.filename in _STDIN_NAMES else module_name(Path(self.filename), config)
        # flake8 reads files with universal newlines: each line ends in "\n". From stdin a
        # line may hold a "\r", which the tokenizer counts as a line break of its own.
        text = "".join(self.lines)
        lines = self.lines if "\r" not in text else source_lines(text)
        from toolwire.lint.analysis.run import Parsed

        found = check_parsed(Parsed(self.tree, lines, self.filename, config, module, text=text))
        if config.enabled("TW001"):  # flake8 applies `# noqa` itself, to these too
            from toolwire.lint.checks.tw001 import unused
            from toolwire.lint.suppressions import Suppressions

            found += unused(found, Suppressions(lines, text), config, self.filename)
        if named is None or not config.per_file_ignores:
            return found
        return [f for f in found if not config.silenced(named, f.code)]

    def run(self) -> Iterator[tuple[int, int, str, type[ToolwireChecker]]]:
        try:
            findings = self.findings()
        except Exception as exc:  # flake8 would abort the whole run on a plugin crash
            findings = [internal_error(self.filename, f"{type(exc).__name__}: {exc}")]
        for finding in findings:
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)


def _check_codes(options: Any) -> None:
    """A TW code in `--select`/`--ignore` (or their `extend-` forms) that names no rule
    stops flake8 as a bad option does: `--select TW310` would select nothing of ours, and
    a TW000 finding would be filtered out by that very select. Other codes are not ours."""
    for option in ("select", "extend_select", "ignore", "extend_ignore"):
        for code in getattr(options, option, None) or ():
            if not isinstance(code, str) or not code.upper().startswith("TW"):
                continue
            problem = code_problem(code.upper())
            if problem is not None:
                _stop(f"--{option.replace('_', '-')}: {problem}")


def _stop(problem: str) -> NoReturn:
    print(f"flake8: error: toolwire: {problem}", file=sys.stderr)
    raise SystemExit(2)
