"""Where the rule files are, found without `importlib.resources` (about 10 ms of imports),
so that loading a config, which reads their names and front matter, stays cheap."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def rules_path() -> Path | None:
    """The installed `_rules/` beside the package, or the checkout's `rules/`; None when
    neither is a directory (a zipped install: `catalog.rules_dir` then asks importlib)."""
    for candidate in (_HERE / "_rules", _HERE.parents[2] / "rules"):
        if candidate.is_dir():
            return candidate
    return None
