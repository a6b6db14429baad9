"""Fixtures for the adoption tests (init, docs, demo, pre-commit, CI, ruff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from adoption_helpers import copy_example


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    """A scratch copy of examples/agent, written the old way."""
    return copy_example(tmp_path / "agent")
