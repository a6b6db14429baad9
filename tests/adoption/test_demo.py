"""examples/demo.py, the README's main command, run for real."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from adoption_helpers import REPO, run

DEMO = REPO / "examples" / "demo.py"


def test_demo_runs_the_whole_story() -> None:
    done = run([sys.executable, str(DEMO)], REPO, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    out = done.stdout
    for header in (
        " 1. What the codemod would change: toolwire migrate --diff",
        " 2. Migrate, and review what was skipped: toolwire migrate",
        " 3. The leaks a person has to fix: toolwire check",
        " 4. The example's own tests, on the migrated copy",
        " 5. The manual step: the records tool's rows become a TABLE artifact",
    ):
        assert header in out
    assert "MemoryTool.execute: annotated `-> Optional[str]`, not `-> str`" in out
    assert "agent/debug.py:14:44: TW302" in out
    assert out.count("(exit 1)") == 2  # check, twice: the leaks are expected
    assert out.rstrip().endswith("every step behaved as expected")
    assert "FAIL" not in out
    assert not (REPO / "examples" / "agent" / "tests" / "test_records_artifact.py").exists()


@pytest.mark.skipif(os.name != "posix", reason="uses a symlinked interpreter")
def test_demo_without_toolwire_exits_2(tmp_path: Path) -> None:
    bare = tmp_path / "python"
    bare.symlink_to(Path(sys.base_prefix) / "bin" / Path(sys.executable).name)
    done = run([str(bare), str(DEMO)], tmp_path)
    assert done.returncode == 2
    assert "install it into this environment first: pip install ." in done.stderr
