"""The linter: everything that reads code, and nothing that migrated code imports.

`toolwire` itself is the runtime (`result`, `bounds`, `adapters`, `guard`, `testing`),
standard library only. This package holds the egress model and its presets, the
analysis, the checks, the engine, the codemods and the front-ends (the `toolwire`
command, the flake8 plugin, the mypy plugin). ARCHITECTURE.md draws the layers.
"""
