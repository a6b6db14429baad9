"""pydantic-ai's other tool shapes, migrated and proved through a real agent run.

`@toolset.tool` / `@toolset.tool_plain` on a `FunctionToolset`, `Tool(fn)` and
`Tool(fn, takes_ctx=True)`, `Agent(tools=[fn])` and `FunctionToolset([fn])`: a project
whose only config is `presets = ["pydantic-ai"]` is migrated by the real `toolwire
migrate`; each tool is called through `Agent.run_sync` with pydantic-ai's own
`FunctionModel` before and after. The model reads the same text; an artifact added to a
migrated tool lands in the part's metadata (run-only), never in what the model reads.
`toolwire check` reports TW101 on each tool before, and nothing after.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from codemod_helpers import tw101_findings
from test_framework_migrate import RUFF, _load, _migrate

pytest.importorskip("pydantic_ai")

TOOLS = '''
    from pydantic_ai import Agent, FunctionToolset, RunContext, Tool

    toolset = FunctionToolset()


    @toolset.tool
    def greet(ctx: RunContext[str], name: str) -> str:
        """Greet someone as the signed-in user."""
        return f"{ctx.deps} greets {name}"


    @toolset.tool_plain
    def shout(text: str) -> str:
        """Shout the text."""
        return text.upper()


    def count(text: str) -> str:
        """Count the words."""
        return str(len(text.split()))


    def stamp(text: str) -> str:
        """Stamp the text."""
        return f"[{text}]"


    def whoami(ctx: RunContext[str]) -> str:
        """The signed-in user."""
        return f"you are {ctx.deps}"


    def reverse(text: str) -> str:
        """Reverse the text."""
        return text[::-1]


    extra = FunctionToolset([reverse])
    agent = Agent(
        "test",
        deps_type=str,
        toolsets=[toolset, extra],
        tools=[count, Tool(stamp), Tool(whoami, takes_ctx=True)],
    )
'''
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("greet", {"name": "Bo"}),
    ("shout", {"text": "hi"}),
    ("count", {"text": "a b c"}),
    ("stamp", {"text": "x"}),
    ("whoami", {}),
    ("reverse", {"text": "abc"}),
]


def _call(module: ModuleType, name: str, args: dict[str, Any]) -> Any:
    """The one tool-return part of an agent run whose model calls `name` once."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import FunctionModel

    agent = module.agent
    assert isinstance(agent, Agent)
    turns: list[int] = []

    def script(messages: list[Any], info: Any) -> ModelResponse:
        turns.append(1)
        if len(turns) == 1:
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    result = agent.run_sync("go", model=FunctionModel(script), deps="ada")
    [part] = [
        p
        for m in result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]
    return part


def test_every_pydantic_ai_shape_is_migrated_and_the_model_reads_the_same(
    tmp_path: Path,
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["pydantic-ai"]\n', encoding="utf-8"
    )
    path = tmp_path / "tools.py"
    path.write_text(textwrap.dedent(TOOLS).lstrip(), encoding="utf-8")
    flagged = {f["line"] for f in tw101_findings(tmp_path)}
    lines = path.read_text(encoding="utf-8").splitlines()
    defs = {i + 1 for i, line in enumerate(lines) if line.startswith("def ")}
    # each of the six tools, at its decorator or its `def`
    assert len(flagged) == 6 and all(line in defs or line + 1 in defs for line in flagged)

    [module] = _load(tmp_path, ["tools.py"])
    before = {name: _call(module, name, args) for name, args in CALLS}
    assert before["greet"].content == "ada greets Bo"

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 6, summary
    assert summary["skipped"] == []
    assert tw101_findings(tmp_path) == []

    [module] = _load(tmp_path, ["tools.py"])
    for name, args in CALLS:
        part = _call(module, name, args)
        assert part.content == before[name].content, name
        assert part.outcome == "success", name

    # An artifact added to a migrated tool goes to the run-only metadata only.
    source = path.read_text(encoding="utf-8")
    assert "return ToolResult.text(str(len(text.split())))" in source
    path.write_text(
        source.replace(
            "return ToolResult.text(str(len(text.split())))",
            'return ToolResult.text(str(len(text.split())), ToolArtifact.text("words", "SECRET"))',
        ).replace(
            "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
        ),
        encoding="utf-8",
    )
    [module] = _load(tmp_path, ["tools.py"])
    part = _call(module, "count", {"text": "a b c"})
    assert part.content == before["count"].content
    assert "SECRET" not in json.dumps(part.model_response_object())
    assert [a.data for a in part.metadata.artifacts] == [{"text": "SECRET"}]

    path.write_text(source, encoding="utf-8")
    again = _migrate(tmp_path, "--check")
    assert again.returncode == 0, again.stdout + again.stderr
    lint = subprocess.run([RUFF, "check", "--select", "I", "."], cwd=tmp_path, capture_output=True)
    assert lint.returncode == 0, lint.stdout


def test_a_function_given_to_an_agent_as_its_model_is_no_tool(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["pydantic-ai"]\n', encoding="utf-8"
    )
    source = textwrap.dedent(
        """
        from pydantic_ai import Agent


        def model_name() -> str:
            return "test"


        def helper(text: str) -> str:
            return text.strip()


        # the model, not a tool: only the `tools` list is read
        agent = Agent(model_name, tools=[], system_prompt=helper(" hi "))
        """
    ).lstrip()
    (tmp_path / "agent.py").write_text(source, encoding="utf-8")
    assert tw101_findings(tmp_path) == []
    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["methods_migrated"] == 0
    assert (tmp_path / "agent.py").read_text(encoding="utf-8") == source


def test_check_and_migrate_agree_on_a_toolset_with_a_type_parameter(tmp_path: Path) -> None:
    # pydantic-ai's docs write the base subscripted, `AbstractToolset[Any]`.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["pydantic-ai"]\n', encoding="utf-8"
    )
    source = textwrap.dedent(
        """
        from typing import Any

        from pydantic_ai.toolsets import AbstractToolset


        class Clock(AbstractToolset[Any]):
            async def call_tool(self, name: str, tool_args: Any, ctx: Any, tool: Any) -> str:
                return "12:00"


        class NotAToolset(list[Any]):
            async def call_tool(self, name: str) -> str:
                return name
        """
    ).lstrip()
    (tmp_path / "clock.py").write_text(source, encoding="utf-8")
    assert [(f["line"], f["code"]) for f in tw101_findings(tmp_path)] == [(7, "TW101")]
    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["methods_migrated"] == 1
    assert tw101_findings(tmp_path) == []
