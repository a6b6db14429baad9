"""The plugin's mypy error codes: one per rule family (`toolwire-wire`, ...)."""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode

# Built at import (the plugin's): mypy checks `--disable-error-code` once plugins are loaded.
FAMILY_CODES: Final = {
    family: ErrorCode(f"toolwire-{family}", f"toolwire {family} rules", "toolwire")
    for family in ("migrate", "construct", "stringify", "wire", "artifact")
}

# The families as rules/ states them; used only if the catalog cannot be read.
_FALLBACK_FAMILY: Final = {
    "TW101": "migrate",
    "TW102": "construct",
    "TW103": "construct",
    "TW104": "construct",
    "TW105": "construct",
    "TW201": "stringify",
    "TW202": "stringify",
    "TW203": "stringify",
    "TW204": "stringify",
    "TW301": "wire",
    "TW302": "wire",
    "TW303": "wire",
    "TW401": "artifact",
    "TW402": "artifact",
}


def error_codes() -> dict[str, ErrorCode]:
    """TW code -> mypy error code, from the family each rule file declares."""
    families = dict(_FALLBACK_FAMILY)
    try:
        from toolwire.lint.catalog import catalog

        families.update({code: rule.family for code, rule in catalog().items()})
    except Exception:  # a missing catalog must not stop mypy
        pass
    return {
        code: FAMILY_CODES[family] for code, family in families.items() if family in FAMILY_CODES
    }
