"""What each install needs: the runtime nothing, the command no flake8 and no mypy.

`pip install --no-deps toolwire` must run migrated code, and `pip install toolwire` must give
a working `toolwire` command without flake8 and mypy (their plugins load inside the user's
own flake8 and mypy). Each case runs in a fresh interpreter in which the modules that
install would not have cannot be imported.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINTERS = ("mypy", "mypyc", "flake8", "pycodestyle", "pyflakes", "mccabe")
COMMAND_DEPENDENCIES = ("libcst", "click", "pathspec", "tomlkit")

_BLOCK = """\
import importlib.abc, sys
class _Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {absent!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Absent())
"""


def _run(absent: tuple[str, ...], code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    program = _BLOCK.format(absent=set(absent)) + code
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_flake8_and_mypy_are_extras_not_dependencies() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {d.split(">")[0].split("[")[0].strip() for d in project["dependencies"]}
    assert names == set(COMMAND_DEPENDENCIES)
    extras = project["optional-dependencies"]
    assert extras["flake8"] == ["flake8>=6.0"] and extras["mypy"] == ["mypy>=1.8"]
    assert any("flake8" in e and "mypy" in e for e in extras["test"] if e.startswith("toolwire["))


def test_the_runtime_runs_with_no_dependency(tmp_path: Path) -> None:
    code = (
        "import toolwire, toolwire.guard, toolwire.testing\n"
        "from toolwire import ToolArtifact, ToolResult\n"
        "r = ToolResult.text('3 rows', ToolArtifact.table('rows', ['a'], [['1']]))\n"
        "assert r.content == '3 rows' and r.artifacts[0].label == 'rows'\n"
        "assert ToolResult.error('no').is_error\n"
        "import sys\n"
        "assert not [m for m in sys.modules if m.startswith('toolwire.lint')]\n"
        "print('ok')\n"
    )
    done = _run(LINTERS + COMMAND_DEPENDENCIES, code, tmp_path)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


@pytest.mark.parametrize("command", [["check", "."], ["migrate", "--diff", "."], ["rules"]])
def test_the_command_runs_without_flake8_and_mypy(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(
        "class Echo:\n    def execute(self, arguments: dict[str, str]) -> str:\n"
        "        return arguments['text']\n",
        encoding="utf-8",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\ntool-methods = ["execute"]\n', encoding="utf-8"
    )
    code = "import sys\nfrom toolwire.lint.cli import main\n"
    code += f"sys.argv = ['toolwire', *{command!r}]\nmain()\n"
    done = _run(LINTERS, code, tmp_path)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "No module named" not in done.stderr
    if command[0] == "migrate":
        assert "ToolResult.text(" in done.stdout
    if command[0] == "check":
        assert "TW101" in done.stdout
