"""The shipped presets load where the frameworks are not installed (a pre-commit hook's
environment): no sink of theirs needs the framework's source to be located.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from preset_cases import PRESETS

from toolwire.lint.model import frameworks

SRC = Path(__file__).resolve().parents[2] / "src"

_LOAD = """
import importlib.util, sys
from toolwire.lint.config import config_from_table
missing = [m for m in {modules!r} if importlib.util.find_spec(m.partition(".")[0]) is not None]
assert not missing, f"installed here: {{missing}}"
for name in {presets!r}:
    config = config_from_table({{"presets": [name]}})
    assert config.egress_sinks or config.wire_sinks or config.model.shapes, name
print("loaded", len({presets!r}))
"""


def test_every_framework_preset_loads_without_its_framework(tmp_path: Path) -> None:
    # -S: no site-packages, so neither the frameworks nor their sources are found.
    modules = [module for framework in frameworks() for module in framework.modules]
    code = _LOAD.format(modules=modules, presets=list(PRESETS))
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"loaded {len(PRESETS)}"
