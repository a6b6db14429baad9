"""The mypy plugin's public name: `plugins = ["toolwire.mypy"]` in mypy's configuration.

The plugin lives in `toolwire.lint.mypy`; this module keeps the documented name.
"""

from __future__ import annotations

from toolwire.lint.mypy import FilePlugin, ToolwirePlugin, plugin
from toolwire.lint.mypy import __getattr__ as __getattr__

__all__ = ["FilePlugin", "ToolwirePlugin", "plugin"]
