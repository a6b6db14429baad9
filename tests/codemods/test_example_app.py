"""examples/agent migrates cleanly: its own tests pass afterwards and a re-run is a no-op."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))


def test_example_app_migrates_and_its_tests_pass(tmp_path: Path) -> None:
    app = tmp_path / "agent"
    shutil.copytree(ROOT / "examples" / "agent", app, ignore=shutil.ignore_patterns("__pycache__"))
    before = {p: p.read_bytes() for p in app.rglob("*.py")}
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=app, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    # MemoryTool.execute (`-> Optional[str]`) is skipped, and the loop calls every tool
    # through the base `Tool`: its whole `execute` family stays as it is, each member
    # naming the skipped one (a declaration is migrated with all its implementations).
    assert summary["migrated"] == []
    skipped = {e["class"]: e["reason"] for e in summary["skipped"]}
    assert skipped.pop("MemoryTool") == "annotated `-> Optional[str]`, not `-> str`"
    assert "Tool" in skipped and "CalculatorTool" in skipped and len(skipped) == 8
    assert all("`MemoryTool.execute` (agent/tools/memory.py:19)" in r for r in skipped.values())
    for path, data in before.items():
        ast.parse(path.read_text(encoding="utf-8"))
        if path.parent.name == "tools":
            assert path.read_bytes() == data, path

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(app)])}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr

    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=app, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stdout + again.stderr
    assert "MemoryTool.execute" in again.stdout  # still reported, still skipped
