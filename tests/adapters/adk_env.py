"""A venv with google-adk for the ADK tests, outside the test environment.

google-adk pins `google-genai<3` and `opentelemetry-*<=1.44`; the `test` extra needs
google-genai>=3.6 (the `google-genai` extra) and opentelemetry>=1.45.1 (crewai). They cannot
share one environment, so the ADK tests run their driver (adk_driver.py) in a venv of its
own: `~/.cache/toolwire-tests/adk-<hash>`, built once per pin and interpreter, with
`PYTHONPATH=<repo>/src` (toolwire's runtime is standard-library only).

Built in a temporary directory beside it and renamed into place under a file lock, so
concurrent runs and xdist workers never see a half-built venv. Where it cannot be built, a
run outside CI skips (the registry is unreachable); in CI (`CI` set) the test fails.
`TOOLWIRE_ADK_PYTHON` names an interpreter to use instead (it must have the pinned version).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

PIN = "google-adk==2.13.0"  # the version the tests and docs/frameworks/google-adk.md were run on
REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("adk_driver.py")
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "toolwire-tests"
IN_CI = bool(os.environ.get("CI"))


def _key() -> str:
    interpreter = f"{os.path.realpath(sys.executable)} {sys.version_info[:2]}"
    return hashlib.sha256(f"{PIN}\n{interpreter}".encode()).hexdigest()[:16]


def _build(target: Path) -> str | None:
    """Build the venv at `target`; None, or why it could not be built."""
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        subprocess.run([sys.executable, "-m", "venv", str(work)], check=True, timeout=300)
        python = work / "bin" / "python"
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", PIN],
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if done.returncode != 0:
            return f"pip install {PIN} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
        try:
            work.rename(target)  # the first rename wins; a later one finds the target there
        except OSError:
            if not (target / "bin" / "python").exists():
                raise
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def adk_python() -> Path:
    """The interpreter of the ADK venv, built if needed; skips or fails where it cannot be."""
    given = os.environ.get("TOOLWIRE_ADK_PYTHON")
    if given:
        return Path(given)
    CACHE.mkdir(parents=True, exist_ok=True)
    target = CACHE / f"adk-{_key()}"
    python = target / "bin" / "python"
    if python.exists():
        return python
    with open(CACHE / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        problem = None if python.exists() else _build(target)
    if problem is None:
        return python
    if IN_CI:
        pytest.fail(f"the ADK venv could not be built in CI: {problem}")
    pytest.skip(f"the ADK venv could not be built (registry unreachable?): {problem}")


def run_python(python: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`python args...` with toolwire's source on the path and nothing of this environment."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": str(REPO / "src"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [str(python), *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def drive(python: Path, directory: Path, module: str, calls: list[dict[str, Any]]) -> Any:
    """adk_driver.py's record of each call of `module.agent`'s tools (see there)."""
    done = run_python(python, str(DRIVER), str(directory), module, json.dumps(calls))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def installed_version(python: Path) -> str:
    done = run_python(
        python, "-c", "from importlib.metadata import version; print(version('google-adk'))"
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
