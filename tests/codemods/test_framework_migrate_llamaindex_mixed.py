"""A LlamaIndex tool spec that mixes `-> str` tools with others, migrated and run.

The real `toolwire migrate` (config: `presets = ["llamaindex"]`) migrates the str tools and
leaves `load_data -> list[Document]` as it is, listed with its reason; the spec's base
becomes `ResultToolSpec`, which passes every other return through unchanged. A
`FunctionAgent` driven by LlamaIndex's `MockFunctionCallingLLM` calls every tool before
and after: the model reads the same tool messages, with the same tool schemas.
"""

from __future__ import annotations

import asyncio
import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from test_framework_migrate import _load, _migrate

pytest.importorskip("llama_index.core")

SPEC = '''
    from llama_index.core import Document
    from llama_index.core.tools.tool_spec.base import BaseToolSpec


    class NotesSpec(BaseToolSpec):
        """Notes by title."""

        spec_functions = ["search", "load_data", "count"]

        def search(self, query: str) -> str:
            """Titles that match a query."""
            if not query:
                return "Error: empty query"
            return f"2 notes match {query!r}"

        def load_data(self, title: str) -> list[Document]:
            """The note of a title."""
            return [Document(text=f"the note {title}")]

        def count(self) -> int:
            """How many notes there are."""
            return 7
'''
CALLS = [("search", {"query": "ada"}), ("load_data", {"title": "ada"}), ("count", {})]


def _run(spec: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The tool messages the model reads after calling every tool once, and the schemas."""
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    seen: list[list[ChatMessage]] = []
    schemas: list[dict[str, Any]] = []

    def script(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        seen.append(list(messages))
        schemas[:] = [t.metadata.to_openai_tool() for t in kwargs.get("tools") or []]
        if any(m.role == MessageRole.TOOL for m in messages):
            return ChatMessage(role=MessageRole.ASSISTANT, content="done")
        blocks = [
            ToolCallBlock(tool_call_id=f"c{i}", tool_name=name, tool_kwargs=args)
            for i, (name, args) in enumerate(CALLS)
        ]
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=list(blocks))

    async def go() -> None:
        agent = FunctionAgent(
            tools=spec.to_tool_list(), llm=MockFunctionCallingLLM(response_generator=script)
        )
        await agent.run(user_msg="notes")

    asyncio.run(go())
    tools = [str(m.content) for m in seen[-1] if m.role == MessageRole.TOOL]
    return sorted(tools), schemas


def test_a_mixed_spec_migrates_its_str_tools_and_keeps_the_others(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["llamaindex"]\n', encoding="utf-8"
    )
    path = tmp_path / "notes.py"
    path.write_text(textwrap.dedent(SPEC).lstrip(), encoding="utf-8")
    [module] = _load(tmp_path, ["notes.py"])
    before, schemas_before = _run(module.NotesSpec())
    assert len(before) == 3 and "2 notes match 'ada'" in before

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 1, summary
    skipped = {(e["class"], e["method"]): e["reason"] for e in summary["skipped"]}
    assert set(skipped) == {("NotesSpec", "load_data"), ("NotesSpec", "count")}, skipped
    assert "`-> list[Document]`, not `-> str`" in skipped["NotesSpec", "load_data"]
    text = path.read_text(encoding="utf-8")
    assert "class NotesSpec(ResultToolSpec):" in text
    assert "def search(self, query: str) -> ToolResult:" in text
    assert "def load_data(self, title: str) -> list[Document]:" in text

    [module] = _load(tmp_path, ["notes.py"])
    after, schemas_after = _run(module.NotesSpec())
    assert after == before
    assert schemas_after == schemas_before
    assert _migrate(tmp_path, "--check").returncode == 0
