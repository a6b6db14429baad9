"""With several presets, a field name is run-only only on the result type that declares it:
`output` is smolagents' `ToolOutput` run-only field but the Agents SDK item's wire field."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

from mypy_harness import expected_in, fixture_table, make_project, run_mypy

SOURCE = textwrap.dedent(
    """
    from agents import Agent, Runner, ToolCallOutputItem


    async def again(agent: Agent, item: ToolCallOutputItem) -> object:
        return await Runner.run(agent, input=f"Last time: {item.output}")


    async def leak(agent: Agent, item: ToolCallOutputItem) -> object:
        return await Runner.run(agent, input=f"Last time: {item.custom_data}")  # expect: TW302
    """
)


def test_run_only_field_of_another_preset_type_is_not_flagged(tmp_path: Path) -> None:
    table = fixture_table(presets=["smolagents", "openai-agents"])
    config = make_project(tmp_path, {"items_loop.py": SOURCE}, table=table)
    run = run_mypy(tmp_path, ["items_loop.py"], config=config)
    assert not run.internal_errors(), run.stdout + run.stderr
    assert run.toolwire("items_loop.py") == Counter(expected_in(SOURCE)), run.stdout
