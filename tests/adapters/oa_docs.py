"""Helpers for the framework pages' tests (used by the Agents SDK and pydantic-ai tests)."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).parents[2]


def page(name: str) -> str:
    return (ROOT / "docs" / "frameworks" / name).read_text()


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def install_commands(text: str) -> list[str]:
    return re.findall(r"```console norun\n\$ (.*?)\n```", text)


def assert_extra_installed(extra: str) -> None:
    """`extra` is a toolwire extra, and this environment meets each of its requirements."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    requirements = pyproject["project"]["optional-dependencies"][extra]
    assert requirements
    for line in requirements:
        requirement = Requirement(line)
        installed = version(requirement.name)
        assert requirement.specifier.contains(installed, prereleases=True), (line, installed)
