"""No plugin work, and so no finding, in a module whose errors mypy does not report.

mypy marks a module reached with follow_imports=silent (and an installed package) as
ignored; the plugin asks mypy the same question before running any check there.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

from mypy_harness import make_project, run_mypy

# Says on stderr where each check asked to report: mypy itself drops an error in an
# ignored file, so only this shows whether the plugin worked there at all.
_SPY = (
    "from toolwire.lint.mypy.hooks import ToolwirePlugin\n"
    "_fail = ToolwirePlugin.fail\n"
    "def spy(self, api, code, key, context, **fields):\n"
    "    print('toolwire-test: fail', code, api.path, file=sys.stderr)\n"
    "    return _fail(self, api, code, key, context, **fields)\n"
    "ToolwirePlugin.fail = spy\n"
)

# Leaks through a function hook (print: TW204) and a method hook (str.format: TW202).
LEAKS = """
    from toolwire import ToolResult

    def run_tool() -> ToolResult:
        return ToolResult.text("found")

    # At module level: mypy checks no function body of a silenced module at all.
    print(run_tool())
    SHOWN = f"{run_tool()}"
"""
USER = """
    from vendored.leaks import run_tool

    def mine() -> None:
        print(run_tool())
"""


def _run(tmp_path: Path, follow_imports: str) -> tuple[dict[str, Counter[tuple[int, str]]], str]:
    """The findings by file, and the files where a check asked to report."""
    root = tmp_path / follow_imports
    modules = {"vendored/leaks.py": textwrap.dedent(LEAKS), "user.py": textwrap.dedent(USER)}
    config = make_project(root, modules, mypy_options={"follow_imports": follow_imports})
    run = run_mypy(root, ["user.py"], config=config, prelude=_SPY)
    assert run.internal_errors() == [], run.stdout + run.stderr
    asked = [line for line in run.stderr.splitlines() if line.startswith("toolwire-test: fail")]
    return run.toolwire_by_file(), "\n".join(asked)


def test_a_silenced_module_gets_no_check_and_the_user_file_still_does(tmp_path: Path) -> None:
    leaks = "vendored/leaks.py"
    followed, followed_asked = _run(tmp_path, "normal")
    # Followed normally, the vendored module's leaks are findings: the shape is one.
    assert set(followed[leaks].values()) == {1} and len(followed[leaks]) == 2, followed
    assert leaks in followed_asked
    silenced, silenced_asked = _run(tmp_path, "silent")
    assert leaks not in silenced, silenced
    assert leaks not in silenced_asked, silenced_asked
    assert silenced["user.py"] == followed["user.py"] == Counter({(5, "TW204"): 1})
    assert "user.py" in silenced_asked
