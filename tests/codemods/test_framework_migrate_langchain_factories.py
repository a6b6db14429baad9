"""LangChain tools built by `StructuredTool.from_function` and `Tool.from_function`,
migrated and proved through a LangGraph agent loop.

The real `toolwire migrate` (config: `presets = ["langchain"]`) rewrites the functions to
return a `ToolResult` and the calls to the adapter's `ResultStructuredTool.from_function`
/ `ResultSingleInputTool.from_function`. A graph of a scripted fake chat model and
LangGraph's `ToolNode` calls every tool before and after: the model reads the same tool
messages and gets the same tool schemas; an artifact added to a migrated tool lands in
`ToolMessage.artifact` (run-only), never in what the model reads.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from test_framework_migrate import _load, _migrate

pytest.importorskip("langgraph.prebuilt")

TOOLS = '''
    from langchain_core.tools import StructuredTool, Tool


    def search(query: str, limit: int = 2) -> str:
        """Search the notes."""
        return f"{limit} notes match {query!r}"


    async def asearch(query: str, limit: int = 2) -> str:
        """Search the notes."""
        return f"{limit} notes match {query!r}"


    def lookup(name: str) -> str:
        """Look a person up."""
        return f"{name} is a mathematician"


    search_tool = StructuredTool.from_function(func=search, coroutine=asearch)
    lookup_tool = Tool.from_function(lookup, name="lookup", description="Look a person up.")
'''
CALLS = [
    {"name": "search", "args": {"query": "ada", "limit": 3}, "id": "c1"},
    {"name": "lookup", "args": {"__arg1": "ada"}, "id": "c2"},
]


def _run(module: ModuleType) -> tuple[list[Any], list[dict[str, Any]]]:
    """The tool messages of one agent turn that calls every tool, and the tool schemas."""
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    tools = [module.search_tool, module.lookup_tool]
    model = FakeMessagesListChatModel(
        responses=[AIMessage("", tool_calls=CALLS), AIMessage("done")]
    )

    def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    state = graph.compile().invoke({"messages": [HumanMessage("go")]})
    messages = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    return messages, [convert_to_openai_tool(t) for t in tools]


def test_factory_tools_are_migrated_and_the_model_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["langchain"]\n', encoding="utf-8"
    )
    path = tmp_path / "tools.py"
    path.write_text(textwrap.dedent(TOOLS).lstrip(), encoding="utf-8")
    [module] = _load(tmp_path, ["tools.py"])
    before, schemas = _run(module)
    assert [m.content for m in before] == ["3 notes match 'ada'", "ada is a mathematician"]

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 3, summary
    assert summary["skipped"] == []
    text = path.read_text(encoding="utf-8")
    assert "ResultStructuredTool.from_function(func=search, coroutine=asearch)" in text
    assert 'ResultSingleInputTool.from_function(lookup, name="lookup"' in text

    [module] = _load(tmp_path, ["tools.py"])
    after, schemas_after = _run(module)
    assert [(m.content, m.status) for m in after] == [(m.content, m.status) for m in before]
    assert schemas_after == schemas
    assert _migrate(tmp_path, "--check").returncode == 0

    # An artifact added to a migrated tool rides ToolMessage.artifact only.
    old = 'return ToolResult.text(f"{name} is a mathematician")'
    assert old in text
    path.write_text(
        text.replace(old, old[:-1] + ', ToolArtifact.text("bio", "SECRET"))').replace(
            "from toolwire import ToolResult", "from toolwire import ToolArtifact, ToolResult"
        ),
        encoding="utf-8",
    )
    [module] = _load(tmp_path, ["tools.py"])
    messages, _ = _run(module)
    lookup = next(m for m in messages if m.tool_call_id == "c2")
    assert lookup.content == "ada is a mathematician"
    assert [a.data for a in lookup.artifact] == [{"text": "SECRET"}]


def test_a_function_also_called_directly_is_listed(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["langchain"]\n', encoding="utf-8"
    )
    source = textwrap.dedent(
        """
        from langchain_core.tools import StructuredTool


        def search(query: str) -> str:
            \"\"\"Search the notes.\"\"\"
            return query


        search_tool = StructuredTool.from_function(func=search)
        first = search("x").upper()
        """
    ).lstrip()
    (tmp_path / "tools.py").write_text(source, encoding="utf-8")
    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 0
    [entry] = summary["skipped"]
    assert "also used other than as the factory's function" in entry["reason"]
    assert (tmp_path / "tools.py").read_text(encoding="utf-8") == source
