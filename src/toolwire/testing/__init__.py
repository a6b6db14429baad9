"""Test tooling: the pytest plugin that runs a test suite under ``toolwire.guard``.

The plugin (``toolwire.testing.pytest_plugin``) is registered as a ``pytest11`` entry
point and does nothing unless ``--toolwire-guard`` or ``toolwire_guard = true`` is given.
"""
