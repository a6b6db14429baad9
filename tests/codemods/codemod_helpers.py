"""Reading the before/after pairs of codemods/*.md and rules/*.md, and a scratch project."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from toolwire.lint.catalog import Example, front_matter, read_examples

ROOT = Path(__file__).resolve().parents[2]
CODEMODS_DIR = ROOT / "codemods"
RULES_DIR = ROOT / "rules"
FIXTURES = ROOT / "tests" / "fixtures"


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


def pairs(path: Path, base: dict[str, Any] | None = None) -> list[Pair]:
    """Every ```python before``` with the ```python after``` that follows it, read as the
    catalog reads examples (`toolwire.lint.catalog.read_examples`)."""
    meta, body, offset = front_matter(path.read_text(encoding="utf-8"), path.name)
    config = {**(base or {}), **meta.get("config", {})}
    found: list[Pair] = []
    pending: Example | None = None
    for example in read_examples(body, offset, ("codemod",), path.name):
        if example.kind == "before":
            pending = example
        elif example.kind == "after" and pending is not None:
            found.append(
                Pair(
                    path.name,
                    pending.line,
                    pending.code,
                    example.code,
                    {**config, **pending.config},
                    dict(pending.options),
                )
            )
            pending = None
    return found


def project(root: Path, config: dict[str, Any], files: dict[str, str] | None = None) -> Path:
    """A scratch project: pyproject with [tool.toolwire], the fixture package `app`, files."""
    root.mkdir(parents=True, exist_ok=True)
    text = tomlkit.dumps({"tool": {"toolwire": config}})
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
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


TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
RUFF = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))


def tw101_findings(root: Path) -> list[dict[str, Any]]:
    """`toolwire check --select TW101` of the tree: the tools still returning str."""
    done = subprocess.run(
        [TOOLWIRE, "check", "--format", "json", "--select", "TW101", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["findings"]
    return found


def ruff_unused_imports(root: Path) -> set[tuple[str, str]]:
    """ruff's F401 findings of the tree: (file name, message)."""
    found = subprocess.run(
        [RUFF, "check", "--isolated", "--select", "F401", "--output-format", "json", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert found.returncode in (0, 1), found.stderr
    return {(Path(f["filename"]).name, f["message"]) for f in json.loads(found.stdout)}


def vendored_project(
    root: Path, preset: str, packages: dict[str, Path], *, package_init: bool = False
) -> Path:
    """A scratch project whose only setting is `presets = [preset]`, holding each vendored
    package's `.py.txt` files (tests/fixtures/*_real) as Python modules."""
    for name, fixture in packages.items():
        target = root / name
        target.mkdir(parents=True)
        if package_init:
            (target / "__init__.py").write_text("", encoding="utf-8")
        for source in fixture.glob("*.py.txt"):
            (target / source.name.removesuffix(".txt")).write_bytes(source.read_bytes())
    config = f'[tool.toolwire]\npresets = ["{preset}"]\n'
    (root / "pyproject.toml").write_text(config, encoding="utf-8")
    return root


def migrate_summary(root: Path) -> dict[str, Any]:
    """The real `toolwire migrate --format json .` in `root`: its summary."""
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def run_driver(
    driver: str, *args: str, timeout: float = 300, env: dict[str, str] | None = None
) -> Any:
    """A framework driver script run by this Python (`python -c DRIVER ARGS...`), which
    must exit 0 and print its JSON answer on its last line: that answer."""
    done = subprocess.run(
        [sys.executable, "-c", driver, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
