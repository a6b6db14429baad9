"""The framework pages (docs/frameworks/*.md) for the tests that run them: their code
blocks, run as real code, and their install lines, held to the extras' pins."""

from __future__ import annotations

import re
import sys
import tomllib
import types
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
FRAMEWORKS = REPO / "docs" / "frameworks"
_FENCE = re.compile(
    r"^(?P<fence>`{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S
)
_INSTALL = re.compile(r"^\$ pip install 'toolwire\[(?P<extra>[a-z-]+)\]'$", re.M)


@dataclass(frozen=True)
class Block:
    line: int  # of the block's first line of code in the page
    info: tuple[str, ...]  # `("python",)`, `("python", "mcp2")`, `("console", "norun")`
    source: str


def page_text(page: str) -> str:
    return (FRAMEWORKS / page).read_text(encoding="utf-8")


def blocks(page: str) -> list[Block]:
    """Every fenced block of `docs/frameworks/<page>`, top to bottom."""
    text = page_text(page)
    return [
        Block(text.count("\n", 0, m.start("body")) + 1, tuple(m["info"].split()), m["body"])
        for m in _FENCE.finditer(text)
    ]


def python_blocks(page: str, info: tuple[str, ...] = ("python",)) -> list[Block]:
    return [b for b in blocks(page) if b.info == info]


def run_block(page: str, block: Block, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run one block at its own line numbers, in `namespace` or else in a fresh module;
    returns the namespace."""
    if namespace is None:
        return run_blocks(page, [block])
    # dont_inherit: the page's code must not get this module's __future__ imports.
    source = "\n" * (block.line - 1) + block.source
    exec(compile(source, f"docs/frameworks/{page}", "exec", dont_inherit=True), namespace)
    return namespace


def run_blocks(
    page: str, found: list[Block], given: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`found` top to bottom in one module (registered while it runs, so that pydantic
    resolves annotations through it), seeded with `given`; returns its namespace."""
    module = types.ModuleType(f"docs_{Path(page).stem.replace('-', '_')}_{found[0].line}")
    module.__dict__.update(given or {})
    sys.modules[module.__name__] = module
    try:
        for block in found:
            run_block(page, block, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def run_page(
    page: str, given: dict[str, Any] | None = None, info: tuple[str, ...] = ("python",)
) -> dict[str, Any]:
    """Every block of the page with this info string, top to bottom, in one module (they
    build on each other)."""
    found = python_blocks(page, info)
    assert found, f"{page}: no {' '.join(info)} block"
    return run_blocks(page, found, given)


def install_extras(page: str) -> list[str]:
    """The extras the page's `$ pip install 'toolwire[extra]'` lines name."""
    return _INSTALL.findall(page_text(page))


def extra_requirements(extra: str) -> list[Requirement]:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(r) for r in pyproject["project"]["optional-dependencies"][extra]]


def assert_extra_installed(extra: str) -> None:
    """`extra` is a toolwire extra, and this environment meets each of its requirements."""
    requirements = extra_requirements(extra)
    assert requirements
    for requirement in requirements:
        installed = version(requirement.name)
        assert requirement.specifier.contains(installed, prereleases=True), (
            str(requirement),
            installed,
        )
