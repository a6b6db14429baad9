"""Set-ups shared by every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`toolwire check`'s result cache in a directory of this session, not the user's: the
    keys already keep one test's results from another's, and this keeps ~/.cache clean."""
    saved = os.environ.get("TOOLWIRE_CACHE_DIR")
    os.environ["TOOLWIRE_CACHE_DIR"] = str(tmp_path_factory.mktemp("toolwire-cache"))
    yield
    if saved is None:
        os.environ.pop("TOOLWIRE_CACHE_DIR", None)
    else:
        os.environ["TOOLWIRE_CACHE_DIR"] = saved


@pytest.fixture(scope="session")
def framework_mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the runs over framework code: typeshed and each framework are
    analysed once per session (per xdist worker). Each project's own modules are new to
    it, and the plugin reports the same config data for every module outside a project,
    so a framework module is read from the cache whatever the project's config."""
    return tmp_path_factory.mktemp("framework-mypy-cache")
