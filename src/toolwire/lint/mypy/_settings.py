"""What the plugin knows before mypy checks anything: the config of a table."""

from __future__ import annotations

import configparser
import dataclasses
import hashlib
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, NoReturn

from toolwire import __version__

if TYPE_CHECKING:  # loaded with the first table: a warm start reads only the mypy config
    from toolwire.lint.config import Config, ConfigError

OPTION_NAMES: Final = ("toolwire_config", "x_toolwire_config")


@dataclass(frozen=True, slots=True)
class Settings:
    config: Config
    problem: str | None  # a ConfigError message, already reported
    fingerprint: str  # for report_config_data


def explicit_config(config_file: str | None) -> Path | None:
    """`x_toolwire_config = path` in the mypy section of `config_file`, resolved against it;
    None when it names none (each file then uses its nearest table). A bad one stops mypy."""
    try:
        return _explicit_path(config_file)
    except _BadMypyConfig as exc:
        from toolwire.lint.config import ConfigError

        _stop(ConfigError(exc.path, None, exc.problem))


class _BadMypyConfig(Exception):
    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(problem)
        self.path = path
        self.problem = problem


def load_settings(source: Path | None) -> Settings:
    """The settings of the table in `source` (None: the defaults).

    A bad config stops mypy as it stops every front-end: one line on stderr, exit 2 (the
    defaults have no wire sinks, so going on would pass a gate that checks nothing).
    """
    from toolwire.lint.config import ConfigError, load_config

    problem = None
    try:
        config = load_config(source)
    except ConfigError as exc:
        _stop(exc)
    except Exception as exc:  # a bug of ours must not stop mypy
        problem = f"internal error in plugin while reading the config: {exc!r}"
        config = load_config(None)
    # mypy's parallel workers load the plugin too; the coordinator alone reports.
    if problem is not None and "mypy.build_worker.worker" not in sys.modules:
        print(
            f"toolwire: error: {problem} (the toolwire mypy plugin goes on with the defaults)",
            file=sys.stderr,
        )
    # Where the table came from does not change a result; what it says does.
    said = dataclasses.replace(config, source=None)
    digest = hashlib.sha256(f"{__version__}\n{said!r}\n{problem}".encode()).hexdigest()
    return Settings(config, problem, digest)


def _stop(exc: ConfigError) -> NoReturn:
    print(f"toolwire: error: {exc}", file=sys.stderr)
    raise SystemExit(2) from None


def _explicit_path(config_file: str | None) -> Path | None:
    if not config_file:
        return None
    file = Path(config_file)
    try:
        if file.suffix == ".toml":
            data = tomllib.loads(file.read_text(encoding="utf-8"))
            section: object = data.get("tool", {}).get("mypy", {})
        else:
            parser = configparser.RawConfigParser()
            parser.read(file, encoding="utf-8")
            section = dict(parser["mypy"]) if parser.has_section("mypy") else {}
    except (OSError, ValueError, configparser.Error) as exc:
        raise _BadMypyConfig(file, f"cannot read the mypy config: {exc}") from None
    if not isinstance(section, dict):
        return None
    for name in OPTION_NAMES:
        value = section.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise _BadMypyConfig(file, f"{name} must be a path, got {value!r}")
        return (file.parent / value.strip()).resolve()
    return None
