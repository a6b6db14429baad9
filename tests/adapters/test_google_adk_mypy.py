"""The mypy plugin on ADK's own types: the preset's item-assignment sink (`State.__setitem__`).

ADK cannot be installed beside the test extra (pyproject.toml), so the preset cases run
through the syntax layer only there; here mypy (this environment's, with toolwire's plugin)
reads ADK from its own venv (`--python-executable`, tests/adapters/adk_env.py): mypy checks
`tool_context.state["k"] = v` as a call of `State.__setitem__`, typed from ADK's sources.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "presets" / "cases" / "google-adk"
_EXPECT = re.compile(r"#\s*expect:\s*(TW\d{3})")
_FOUND = re.compile(r"^(?P<file>[\w.]+):(?P<line>\d+): error: (?P<code>TW\d{3}) ", re.M)


def _expected(source: str) -> Counter[tuple[str, int]]:
    return Counter(
        (m[1], n)
        for n, text in enumerate(source.splitlines(), 1)
        for m in [_EXPECT.search(text)]
        if m
    )


def test_mypy_flags_results_assigned_into_adk_session_state(
    adk_python: Path, tmp_path: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["google-adk"]\n\n[tool.mypy]\nplugins = ["toolwire.mypy"]\n',
        encoding="utf-8",
    )
    names = ("flagged_state_items.py", "clean_state_items.py")
    for name in names:
        (tmp_path / name).write_text((CASES / name).read_text(encoding="utf-8"), "utf-8")
    done = subprocess.run(
        [
            sys.executable,
            *("-m", "mypy", "--python-executable", str(adk_python)),
            *("--no-incremental", "--follow-imports=silent", "--no-error-summary"),
            *names,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        # ADK's venv has no toolwire: its types come from this checkout, however installed
        env={**os.environ, "MYPYPATH": str(REPO / "src")},
    )
    assert "Traceback" not in done.stderr and "internal error" not in done.stdout, done.stdout
    found: dict[str, Counter[tuple[str, int]]] = {name: Counter() for name in names}
    for match in _FOUND.finditer(done.stdout):
        found[match["file"]][(match["code"], int(match["line"]))] += 1
    flagged = (CASES / names[0]).read_text(encoding="utf-8")
    assert found[names[0]] == _expected(flagged) != Counter(), done.stdout
    assert found[names[1]] == Counter(), done.stdout
