"""The type layer's rules, one module per rule as in `toolwire.lint.checks`. Each module has
`register(plugin)`, which hooks its check on the names the egress model gives; it sees
the plugin only through `toolwire.lint.mypy.api.Rules`."""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolwire.lint.mypy.api import Rules


def register_all(plugin: Rules) -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("tw") and plugin.enabled(module.name.upper()):
            importlib.import_module(f"{__name__}.{module.name}").register(plugin)
