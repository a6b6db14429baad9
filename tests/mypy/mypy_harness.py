"""Run real mypy on projects built in tmp dirs with the toolwire plugin on.

A project is a copy of `tests/fixtures/app` (so `app.chat` and friends resolve), a mypy
config that loads `toolwire.mypy`, a `[tool.toolwire]` table and the modules under test.
`stubs/` gives mypy just enough of markupsafe and django for the HTML sinks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwire.lint.catalog import expectations

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
STUBS = HERE / "stubs"
_LINE = re.compile(
    r"^(?P<path>[^:\n]+):(?P<line>\d+): (?P<severity>error|note): (?P<message>.*?)"
    r"(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


@dataclass(frozen=True)
class Message:
    path: str
    line: int
    severity: str
    text: str
    error_code: str | None

    @property
    def tw(self) -> str | None:
        """The TW code a toolwire error starts with."""
        match = re.match(r"TW\d{3}\b", self.text)
        if self.severity == "error" and match and (self.error_code or "").startswith("toolwire"):
            return match.group(0)
        return None


@dataclass(frozen=True)
class Run:
    stdout: str
    stderr: str
    status: int

    @property
    def messages(self) -> list[Message]:
        found = []
        for line in self.stdout.splitlines():
            match = _LINE.match(line)
            if match:
                found.append(
                    Message(
                        match["path"].replace("\\", "/"),
                        int(match["line"]),
                        match["severity"],
                        match["message"],
                        match["code"],
                    )
                )
        return found

    def toolwire(self, path: str | None = None) -> Counter[tuple[int, str]]:
        """(line, TW code) of every toolwire error, in one file or all."""
        return Counter(
            (m.line, m.tw)
            for m in self.messages
            if m.tw is not None and (path is None or m.path == path)
        )

    def toolwire_by_file(self) -> dict[str, Counter[tuple[int, str]]]:
        out: dict[str, Counter[tuple[int, str]]] = {}
        for m in self.messages:
            if m.tw is not None:
                out.setdefault(m.path, Counter())[(m.line, m.tw)] += 1
        return out

    def internal_errors(self) -> list[str]:
        text = self.stdout + self.stderr
        return [
            line
            for line in text.splitlines()
            if "internal error" in line.lower() or "Traceback" in line
        ]


expected_in = expectations  # the one `# expect:` parser, as the rules/ examples use


def fixture_table(**overrides: Any) -> dict[str, Any]:
    data = tomllib.loads((FIXTURES / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, Any] = data["tool"]["toolwire"]
    return {**table, **overrides}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(value)


def toml_table(name: str, table: Mapping[str, Any]) -> str:
    body = "".join(f"{key} = {toml_value(value)}\n" for key, value in table.items())
    return f"[{name}]\n{body}"


def write_modules(root: Path, modules: Mapping[str, str]) -> None:
    """`{"pkg/mod.py": source}`; package `__init__.py` files are added."""
    for relative, source in modules.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        parent = path.parent
        while parent != root:
            (parent / "__init__.py").touch()
            parent = parent.parent


def make_project(
    root: Path,
    modules: Mapping[str, str] = {},
    *,
    table: Mapping[str, Any] | None = None,
    kind: str = "pyproject",
    mypy_options: Mapping[str, Any] | None = None,
    raw_toolwire: str | None = None,
) -> Path:
    """Write a project; returns the mypy config file. `kind`: pyproject, mypy.ini, setup.cfg.

    `raw_toolwire` replaces the `[tool.toolwire]` table text (to write a broken one).
    """
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(FIXTURES / "app", root / "app", dirs_exist_ok=True)
    write_modules(root, modules)
    toolwire = (
        raw_toolwire
        if raw_toolwire is not None
        else toml_table("tool.toolwire", fixture_table() if table is None else table)
    )
    options = {"plugins": ["toolwire.mypy"], **(mypy_options or {})}
    search = [str(root), str(STUBS)]
    if kind == "pyproject":
        config = root / "pyproject.toml"
        config.write_text(
            toml_table("tool.mypy", {**options, "mypy_path": search}) + "\n" + toolwire,
            encoding="utf-8",
        )
        return config
    (root / "pyproject.toml").write_text(toolwire, encoding="utf-8")
    config = root / kind
    section = "mypy"
    lines = [f"[{section}]", f"mypy_path = {os.pathsep.join(search)}"]
    for key, value in options.items():
        text = ", ".join(value) if isinstance(value, list) else str(value)
        lines.append(f"{key} = {text}")
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config


_BOOT = """
import sys
{prelude}
from mypy.__main__ import console_entry
console_entry()
"""


def run_mypy(
    root: Path,
    targets: Sequence[str],
    *,
    config: Path,
    cache_dir: Path | None = None,
    args: Iterable[str] = (),
    prelude: str = "",
) -> Run:
    """mypy in a subprocess run from `root` (reported paths are relative to it).

    A subprocess, not `mypy.api.run`: in-process runs keep every run's objects alive,
    and each cold run is slower than a fresh interpreter. `prelude` is Python run first.
    """
    cache = ["--cache-dir", str(cache_dir)] if cache_dir else ["--no-incremental"]
    argv = [
        "--config-file",
        str(config),
        *cache,
        "--show-traceback",
        "--no-pretty",
        "--no-color-output",
        "--hide-error-context",
        "--no-error-summary",
        "--show-error-codes",
        *args,
        *targets,
    ]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("MYPYPATH", None)
    done = subprocess.run(
        [sys.executable, "-c", _BOOT.format(prelude=prelude), *argv],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Run(done.stdout, done.stderr, done.returncode)
