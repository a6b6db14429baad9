"""Reading the before/after pairs of codemods/*.md and rules/*.md, and a scratch project."""

from __future__ import annotations

import re
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CODEMODS_DIR = ROOT / "codemods"
RULES_DIR = ROOT / "rules"
FIXTURES = ROOT / "tests" / "fixtures"
_FENCE = re.compile(
    r"^```(?P<lang>python|toml)[ \t]+(?P<info>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.M | re.S
)


@dataclass(frozen=True)
class Pair:
    doc: str
    line: int
    before: str
    after: str
    config: dict[str, Any]
    options: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    def option_list(self, key: str) -> list[str]:
        value = self.options.get(key, "")
        return [v for v in value.split(",") if v]

    @property
    def module(self) -> str:
        return self.options.get("module", "example")


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    assert text.startswith("+++\n")
    end = text.index("\n+++\n", 4)
    return tomllib.loads(text[4:end]), text[end + 5 :]


def pairs(path: Path, base: dict[str, Any] | None = None) -> list[Pair]:
    """Every ```python before``` with the ```python after``` that follows it."""
    text = path.read_text(encoding="utf-8")
    meta, body = front_matter(text)
    offset = text.count("\n", 0, len(text) - len(body))
    config = {**(base or {}), **meta.get("config", {})}
    found: list[Pair] = []
    override: dict[str, Any] = {}
    pending: tuple[int, str, dict[str, str]] | None = None
    for match in _FENCE.finditer(body):
        words = match["info"].split()
        kind = words[0] if words else ""
        options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        line = offset + body.count("\n", 0, match.start("code")) + 1
        if match["lang"] == "toml" and kind == "config":
            override = tomllib.loads(match["code"])
        elif kind == "before":
            pending = (line, match["code"], options)
        elif kind == "after" and pending is not None:
            start, before, before_options = pending
            found.append(
                Pair(
                    path.name, start, before, match["code"], {**config, **override}, before_options
                )
            )
            pending, override = None, {}
    return found


def toml_value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def project(root: Path, config: dict[str, Any], files: dict[str, str] | None = None) -> Path:
    """A scratch project: pyproject with [tool.toolwire], the fixture package `app`, files."""
    root.mkdir(parents=True, exist_ok=True)
    table = "\n".join(f"{k} = {toml_value(v)}" for k, v in config.items())
    (root / "pyproject.toml").write_text(f"[tool.toolwire]\n{table}\n", encoding="utf-8")
    if not (root / "app").exists():
        shutil.copytree(FIXTURES / "app", root / "app")
    for name, code in (files or {}).items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    return root


def module_path(module: str) -> str:
    return module.replace(".", "/") + ".py"


def fixture_config() -> dict[str, Any]:
    data = tomllib.loads((FIXTURES / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(data["tool"]["toolwire"])
