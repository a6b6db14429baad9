"""Shared by the adoption tests: the repo, the real console scripts, scratch projects."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "agent"
BIN = Path(sys.executable).parent


def script(name: str) -> str:
    """A console script installed next to this interpreter (the venv under test)."""
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed next to {sys.executable}")
    return found


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        list(args),
        cwd=cwd,
        env=full_env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def toolwire(*args: str, cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return run([script("toolwire"), *args], cwd, **kwargs)  # type: ignore[arg-type]


def copy_example(target: Path) -> Path:
    """A scratch copy of examples/agent without caches."""
    shutil.copytree(
        EXAMPLE, target, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", "*.pyc")
    )
    return target


def write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
