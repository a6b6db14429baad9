"""The ADK venv's policy: where it cannot be built, a run outside CI skips and CI fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def _run(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_needs_adk.py").write_text(
        "from adk_env import adk_python\n\ndef test_x():\n    adk_python()\n", encoding="utf-8"
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),  # no venv built yet
        "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1] / "src")]),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        # an unreachable registry: no index, no local wheels, no pip config
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(tmp_path),
    }
    if ci:
        env["CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )


def test_without_a_registry_a_local_run_skips(tmp_path: Path) -> None:
    run = _run(tmp_path, ci=False)
    assert run.returncode == 0, run.stdout
    assert "1 skipped" in run.stdout, run.stdout
    assert "the ADK venv could not be built" in run.stdout
    # nothing half-built is left where a later run would take it for a venv
    built = tmp_path / "cache" / "toolwire-tests"
    assert [p.name for p in built.iterdir() if p.is_dir()] == []


def test_without_a_registry_ci_fails(tmp_path: Path) -> None:
    run = _run(tmp_path, ci=True)
    assert run.returncode == 1, run.stdout
    assert "1 failed" in run.stdout and "could not be built in CI" in run.stdout, run.stdout
