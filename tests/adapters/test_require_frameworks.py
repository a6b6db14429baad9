"""The CI gate: an adapter test that skips in CI is a failure, not a skip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def test_a_skip_fails_when_frameworks_are_required(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text((HERE / "conftest.py").read_text())
    (tmp_path / "test_skip.py").write_text(
        "import pytest\n\ndef test_x():\n    pytest.importorskip('no_such_framework_here')\n"
    )
    # Only the conftest's hook is under test: no plugin of the environment is loaded.
    env = {
        "PATH": "/usr/bin:/bin",
        "TOOLWIRE_REQUIRE_FRAMEWORKS": "1",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert run.returncode == 1, run.stdout
    assert "1 failed" in run.stdout
    env.pop("TOOLWIRE_REQUIRE_FRAMEWORKS")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout
    assert "1 skipped" in run.stdout
