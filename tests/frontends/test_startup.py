"""A one-file `toolwire check` (pre-commit, an editor on save) is mostly start-up: it must
not import what it does not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from frontend_helpers import CONFIG, LEAK, write

# What a one-file check of a module with findings, in the text format, never needs.
NOT_NEEDED = (
    "libcst",
    "tomlkit",
    "pathspec",
    "toolwire.lint.codemods",
    "toolwire.lint.catalog",  # SARIF and `toolwire rules` only
    "toolwire.lint.reporters.json_report",
    "toolwire.lint.reporters.sarif",
    "toolwire.lint.reporters.github",
    "toolwire.lint.reporters.gitlab",
    "importlib.resources",
    "difflib",
    "tempfile",
)


# What the console script runs (`from toolwire.lint.cli import main; main()`), plus a dump of
# `sys.modules` at exit: `-X importtime` misses what `importlib.import_module` loads.
ENTRY = (
    "import atexit, json, sys\n"
    "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.__stderr__))\n"
    "sys.argv[0] = 'toolwire'\n"
    "from toolwire.lint.cli import main\n"
    "main()\n"
)


def loaded_by(args: list[str], root: Path, stdin: str | None = None) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        cwd=root,
        input=stdin or "",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr[-2000:]  # the findings of LEAK
    assert "TW201" in result.stdout and "TW301" in result.stdout
    modules: list[str] = json.loads(result.stderr.splitlines()[-1])
    return set(modules)


@pytest.mark.parametrize("how", ["path", "stdin"])
def test_a_one_file_check_imports_only_what_it_uses(tmp_path: Path, how: str) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "app/leak.py": LEAK})
    if how == "path":
        modules = loaded_by(["check", "app/leak.py"], root)
    else:
        modules = loaded_by(["check", "--stdin-filename", "app/leak.py", "-"], root, LEAK)
    # the parse of the report is right: what the run uses is there
    assert {"click", "toolwire.lint.engine", "toolwire.lint.reporters.text"} <= modules
    assert {"toolwire.lint.checks.tw201", "toolwire.lint.checks.tw301"} <= modules
    unneeded = sorted(
        m for m in modules if any(m == n or m.startswith(f"{n}.") for n in NOT_NEEDED)
    )
    assert not unneeded, unneeded
