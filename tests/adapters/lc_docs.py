"""The ```python blocks of a docs page, for a test that runs each one."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
_PYTHON = re.compile(r"^```python[^\n`]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)


def python_blocks(page: str) -> list[tuple[int, str]]:
    """`(line, source)` of every ```python block on `docs/<page>`, top to bottom."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return [(text[: m.start()].count("\n") + 2, m["body"]) for m in _PYTHON.finditer(text)]


def run_block(page: str, line: int, source: str) -> None:
    """Execute one block as a fresh module (pydantic resolves annotations through it)."""
    module = types.ModuleType(f"docs_{Path(page).stem}_{line}")
    sys.modules[module.__name__] = module
    try:
        # dont_inherit: the page's code must not get this module's __future__ imports.
        code = compile("\n" * (line - 1) + source, f"docs/{page}", "exec", dont_inherit=True)
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
