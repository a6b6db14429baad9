"""Shared by the mypy tests: one incremental cache for the runs that need no cold cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """typeshed is analysed once per session; every project's own modules are new to it."""
    return tmp_path_factory.mktemp("mypy-cache")
