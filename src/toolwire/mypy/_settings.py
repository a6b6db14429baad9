"""What the plugin knows before mypy checks anything: the config and the error codes."""

from __future__ import annotations

import configparser
import dataclasses
import hashlib
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mypy.errorcodes import ErrorCode

from toolwire import __version__
from toolwire.config import Config, ConfigError, find_config, load_config

FAMILY_CODES: Final = {
    family: ErrorCode(f"toolwire-{family}", f"toolwire {family} rules", "toolwire")
    for family in ("migrate", "construct", "stringify", "wire", "artifact")
}
# The families as rules/ states them; used only if the catalog cannot be read.
_FALLBACK_FAMILY: Final = {
    "TW101": "migrate",
    "TW102": "construct",
    "TW103": "construct",
    "TW104": "construct",
    "TW105": "construct",
    "TW201": "stringify",
    "TW202": "stringify",
    "TW203": "stringify",
    "TW204": "stringify",
    "TW301": "wire",
    "TW302": "wire",
    "TW303": "wire",
    "TW401": "artifact",
    "TW402": "artifact",
}
OPTION_NAMES: Final = ("toolwire_config", "x_toolwire_config")


def error_codes() -> dict[str, ErrorCode]:
    """TW code -> mypy error code, from the family each rule file declares."""
    families = dict(_FALLBACK_FAMILY)
    try:
        from toolwire.catalog import catalog

        families.update({code: rule.family for code, rule in catalog().items()})
    except Exception:  # a missing catalog must not stop mypy
        pass
    return {
        code: FAMILY_CODES[family] for code, family in families.items() if family in FAMILY_CODES
    }


@dataclass(frozen=True, slots=True)
class Settings:
    config: Config
    problem: str | None  # a ConfigError message, already reported
    fingerprint: str  # for report_config_data


def load_settings(config_file: str | None) -> Settings:
    """The `[tool.toolwire]` config for a mypy run whose config file is `config_file`.

    `toolwire_config = path` in the mypy section wins; otherwise the nearest pyproject.toml
    with a `[tool.toolwire]` table above the mypy config file (or the working directory).
    A bad config stops mypy as it stops every front-end: one line on stderr, exit 2 (the
    defaults have no wire sinks, so going on would pass a gate that checks nothing).
    """
    problem = None
    try:
        explicit = _explicit_path(config_file)
        if explicit is not None:
            path: Path | None = explicit
        else:
            start = Path(config_file).parent if config_file else Path.cwd()
            path = find_config(start)
        config = load_config(path)
    except ConfigError as exc:
        print(f"toolwire: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except Exception as exc:  # a bug of ours must not stop mypy
        problem = f"internal error in plugin while reading the config: {exc!r}"
    if problem is not None:
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
        raise ConfigError(file, None, f"cannot read the mypy config: {exc}") from None
    if not isinstance(section, dict):
        return None
    for name in OPTION_NAMES:
        value = section.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(file, None, f"{name} must be a path, got {value!r}")
        return (file.parent / value.strip()).resolve()
    return None
