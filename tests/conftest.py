"""Set-ups shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def framework_mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the runs over framework code: typeshed and each framework are
    analysed once per session (per xdist worker). Each project's own modules are new to
    it, and the plugin reports the same config data for every module outside a project,
    so a framework module is read from the cache whatever the project's config."""
    return tmp_path_factory.mktemp("framework-mypy-cache")
