from __future__ import annotations

import pytest

from agent.app import build_loop
from agent.loop import ToolLoop


@pytest.fixture
def loop() -> ToolLoop:
    return build_loop()
