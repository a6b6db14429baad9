"""The toolwire mypy plugin: `plugins = ["toolwire.mypy"]` in mypy's configuration.

The type layer of the toolwire rules: the same sinks as the syntax layer, decided by the
types mypy infers across modules. See docs/mypy.md.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from toolwire.mypy._plugin import ToolwirePlugin

__all__ = ["ToolwirePlugin", "plugin"]


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point; `version` is mypy's version string."""
    return ToolwirePlugin
