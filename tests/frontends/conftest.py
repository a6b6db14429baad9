"""Fixtures for the front-end tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from frontend_helpers import CLEAN, CONFIG, LEAK, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with the openai preset: one leaking module and one clean module."""
    return write(
        tmp_path / "proj",
        {"pyproject.toml": CONFIG, "leak.py": LEAK, "clean.py": CLEAN},
    )
