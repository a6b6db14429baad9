"""The toolwire mypy plugin: `plugins = ["toolwire.mypy"]` in mypy's configuration.

The type layer of the toolwire rules: the same sinks as the syntax layer, decided by the
types mypy infers across modules. See docs/mypy.md.

`plugin` here is mypy's entry function; the plugin classes live in `hooks`.
"""

from __future__ import annotations

from mypy.plugin import Plugin

from toolwire.lint.mypy.hooks import FilePlugin, ToolwirePlugin, stale_version

__all__ = ["FilePlugin", "ToolwirePlugin", "plugin"]


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point; `version` is mypy's version string."""
    return FilePlugin


def __getattr__(name: str) -> str:
    # mypy's plugin snapshot reads `__version__`: dmypy restarts when it changes.
    if name == "__version__":
        return stale_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
