"""CI runs the README's test command verbatim, prints its slowest tests, and installs what
the command needs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _readme_command() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run the tests", 1)[1]
    match = re.search(r"```sh\n(?P<command>[^\n]+)\n```", section)
    assert match, "README.md: no test command under 'Run the tests'"
    return match["command"]


def test_ci_runs_the_readme_command_and_prints_the_slowest_tests() -> None:
    command = _readme_command()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    line = next(line for line in ci.splitlines() if line.startswith(command))
    assert line[len(command) :].split() == ["--durations=25"]


def test_the_test_extra_installs_what_the_command_uses() -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0] for r in extras["test"]}
    if " -n " in f" {_readme_command()} ":
        assert "pytest-xdist" in names
    assert "pytest" in names
