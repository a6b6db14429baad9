"""The example's getattr-resolved leak: static checks miss it, the guard catches it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "guard_dynamic_leak.py"
TOOLWIRE = Path(sys.executable).with_name("toolwire")


def test_toolwire_check_misses_the_getattr_leak(tmp_path: Path) -> None:
    shutil.copy(EXAMPLE, tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["openai"]\n')
    run = subprocess.run([TOOLWIRE, "check", "."], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout
    assert "no findings in 1 file" in run.stderr + run.stdout


def test_the_guard_catches_it_at_run_time_and_passes_the_clean_presenter() -> None:
    run = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "toolwire guard: artifact 'Employees' (type 'table') created at" in run.stdout
    assert "reached the model in POST https://api.openai.com/v1/chat/completions" in run.stdout
    clean = {**os.environ, "PRESENTER": "plain"}
    run = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True, env=clean)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_example_app_tests_pass_under_the_guard() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--toolwire-guard"],
        capture_output=True,
        text=True,
        cwd=REPO / "examples" / "agent",
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert run.returncode == 0, run.stdout
    assert "toolwire guard: on" in run.stdout
