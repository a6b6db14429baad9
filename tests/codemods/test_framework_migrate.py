"""Framework-aware migrate, proved through each framework's own call path.

For each framework: realistic `-> str` tool modules are written to a project whose only
config is `presets = ["<framework>"]`; every tool is called through the framework (a
LangChain tool call, an MCP client session, `Runner.run` of the Agents SDK, a pydantic-ai
agent run) BEFORE the real `toolwire migrate` command runs and AFTER it, on freshly
imported modules. The text the model reads must be identical, a return the codemod made
an error must be the framework's error afterwards (and nothing else may be), every file
must parse, be sorted as ruff's `I` rules want, and a second run must change nothing.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from codemod_helpers import RUFF, TOOLWIRE, ruff_unused_imports

ROOT = Path(__file__).resolve().parents[2]

# (tool name, arguments, the call is an error after the migration)
Call = tuple[str, dict[str, Any], bool]
# The model-facing text of a call, and whether the framework reports it as an error.
Seen = tuple[str, bool]


@dataclass
class Case:
    framework: str
    modules: dict[str, str]
    calls: list[Call]
    invoke: Callable[[list[ModuleType], str, dict[str, Any]], Seen]
    migrated: int
    skipped: dict[str, str] = field(default_factory=dict)  # name -> part of the reason
    # The framework words an error its own way (smolagents: "Error executing tool ...");
    # then the model reads the old text inside it.
    error_wraps_text: bool = False


def _tools(modules: list[ModuleType], kind: type) -> dict[str, Any]:
    """The framework's tools the modules define, by tool name; classes are instantiated."""
    found: dict[str, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, kind)
                and value.__module__ == module.__name__
            ):
                try:
                    value = value()
                except Exception:  # an abstract helper base
                    continue
            if isinstance(value, kind):
                found[value.name] = value
    return found


# -- LangChain: a tool call through `invoke`, as ToolNode and the agents make it --------------


def _langchain(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from langchain_core.tools import BaseTool

    tool = _tools(modules, BaseTool)[name]
    message = tool.invoke({"type": "tool_call", "name": name, "args": args, "id": "c1"})
    return message.content, message.status == "error"


LANGCHAIN = Case(
    "langchain",
    {
        "lc_files.py": '''
            """File tools for the assistant."""

            from pathlib import Path

            from langchain_core.tools import BaseTool
            from pydantic import BaseModel, Field

            ROOT = Path(__file__).parent


            class ReadInput(BaseModel):
                path: str = Field(description="a file name")


            class ReadFile(BaseTool):
                name: str = "read_file"
                description: str = "Read a file."
                args_schema: type[BaseModel] = ReadInput

                def _run(self, path: str) -> str:
                    target = ROOT / path
                    if not target.exists():
                        return f"Error: no such file: {path}"
                    try:
                        return target.read_text()
                    except OSError as exc:
                        return f"could not read {path}: {exc}"

                async def _arun(self, path: str) -> str:
                    return self._run(path)


            class CountLines(ReadFile):
                name: str = "count_lines"
                description: str = "Count the lines of a file."

                def _run(self, path: str) -> str:
                    return str(len((ROOT / path).read_text().splitlines()))
        ''',
        "lc_math.py": '''
            import json

            from langchain_core.tools import tool as lc_tool


            @lc_tool
            def add(a: int, b: int) -> str:
                """Add two integers."""
                return json.dumps({"sum": a + b})


            @lc_tool("divide", return_direct=False)
            def divide(a: float, b: float) -> str:
                """Divide a by b."""
                if b == 0:
                    return "ERROR: division by zero"
                return f"{a / b:.3f}"


            def not_a_tool(a: int) -> str:
                return str(a)
        ''',
        "notes.txt": "first\nsecond\n",
    },
    [
        ("read_file", {"path": "notes.txt"}, False),
        ("read_file", {"path": "missing.txt"}, True),
        ("count_lines", {"path": "notes.txt"}, False),
        ("add", {"a": 2, "b": 3}, False),
        ("divide", {"a": 1, "b": 4}, False),
        ("divide", {"a": 1, "b": 0}, True),
    ],
    _langchain,
    migrated=5,
)


# -- MCP: a client session against the FastMCP server ----------------------------------------


def _mcp(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from mcp.server.fastmcp import FastMCP
    from mcp.shared.memory import create_connected_server_and_client_session as connect

    server = next(v for m in modules for v in vars(m).values() if isinstance(v, FastMCP))

    async def call() -> Any:
        async with connect(server._mcp_server) as session:
            return await session.call_tool(name, args)

    result = asyncio.run(call())
    texts = [block.text for block in result.content if block.type == "text"]
    assert len(texts) == len(result.content) == 1
    return texts[0], bool(result.isError)


MCP = Case(
    "mcp",
    {
        "notes_server.py": '''
            """A notes server."""

            import json

            from mcp.server.fastmcp import Context, FastMCP

            NOTES = {"todo": "buy milk", "ideas": "a linter for tools"}
            server = FastMCP("notes")


            @server.tool()
            def read_note(name: str) -> str:
                """Read a note by name."""
                if name not in NOTES:
                    return f"Error: no note named {name!r}"
                return NOTES[name]


            @server.tool(description="List the notes.")
            async def list_notes(ctx: Context) -> str:
                return json.dumps(sorted(NOTES))


            @server.tool()
            def note_count() -> str:
                """How many notes there are."""
                return "Failed" if not NOTES else str(len(NOTES))
        ''',
    },
    [
        ("read_note", {"name": "todo"}, False),
        ("read_note", {"name": "nope"}, True),
        ("list_notes", {}, False),
        ("note_count", {}, False),
    ],
    _mcp,
    migrated=3,
)


# -- OpenAI Agents SDK: `Runner.run` with a scripted model -----------------------------------


def _agents(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from agents import Agent, FunctionTool, RunConfig, Runner, ToolCallOutputItem
    from oa_scripted import ScriptedModel, final, tool_call

    tools = _tools(modules, FunctionTool)
    model = ScriptedModel(tool_call(name, args), final("done"))
    agent = Agent(name="a", model=model, tools=[tools[name]])
    result = asyncio.run(Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True)))
    second = model.inputs[1]
    assert isinstance(second, list)
    outputs = [i["output"] for i in second if i.get("type") == "function_call_output"]
    (item,) = [i for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    record = (item.custom_data or {}).get("toolwire", {})
    return outputs[0], bool(record.get("is_error"))


AGENTS = Case(
    "openai-agents",
    {
        "travel_tools.py": '''
            import json

            from agents import RunContextWrapper, function_tool

            HOTELS = {"oslo": ["Grand", "Bristol"]}


            @function_tool
            def find_hotels(city: str, limit: int = 2) -> str:
                """Find hotels in a city.

                Args:
                    city: The city to search.
                    limit: How many hotels to list.
                """
                found = HOTELS.get(city.lower())
                if not found:
                    return f"Error: no hotels known in {city}"
                return json.dumps(found[:limit])


            @function_tool(name_override="book")
            async def book_hotel(ctx: RunContextWrapper[None], name: str) -> str:
                """Book a hotel by name."""
                return f"booked {name}"
        ''',
    },
    [
        ("find_hotels", {"city": "Oslo"}, False),
        ("find_hotels", {"city": "Rome"}, True),
        ("book", {"name": "Grand"}, False),
    ],
    _agents,
    migrated=2,
)


# -- pydantic-ai: an agent run with a function model -----------------------------------------


def _pydantic_ai(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import FunctionModel

    agent = next(v for m in modules for v in vars(m).values() if isinstance(v, Agent))
    calls: list[int] = []

    def script(messages: list[Any], info: Any) -> ModelResponse:
        calls.append(1)
        if len(calls) == 1:
            return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    result = agent.run_sync("go", model=FunctionModel(script), deps="ada")
    parts = [
        p
        for m in result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]
    assert len(parts) == 1
    # The part's content: a provider without an error channel gets a failed part as
    # `{"error": content}` (pydantic-ai's own rendering of every tool failure).
    return str(parts[0].content), parts[0].outcome == "failed"


PYDANTIC_AI = Case(
    "pydantic-ai",
    {
        "support_agent.py": '''
            from pydantic_ai import Agent, RunContext

            support = Agent("test", deps_type=str)


            @support.tool
            def whoami(ctx: RunContext[str]) -> str:
                """The signed-in user."""
                return f"you are {ctx.deps}"


            @support.tool_plain(retries=0)
            def order_status(order_id: str) -> str:
                """The status of an order."""
                if not order_id.startswith("o-"):
                    return f"Error: bad order id {order_id}"
                return "shipped"
        ''',
    },
    [
        ("whoami", {}, False),
        ("order_status", {"order_id": "o-1"}, False),
        ("order_status", {"order_id": "x"}, True),
    ],
    _pydantic_ai,
    migrated=2,
)


# -- smolagents: a ToolCallingAgent run with a scripted model --------------------------------


def _smolagents(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from sa_scripted import ScriptedModel, call
    from smolagents import Tool, ToolCallingAgent
    from smolagents.memory import ActionStep

    tool = _tools(modules, Tool)[name]
    model = ScriptedModel([call(1, name, args), call(2, "final_answer", {"answer": "x"})])
    agent = ToolCallingAgent(tools=[tool], model=model, verbosity_level=0)
    agent.run("go")
    (response,) = model.tool_responses()
    step = next(s for s in agent.memory.steps if isinstance(s, ActionStep))
    # to_dict() must keep working (smolagents checks the tool's code is self-contained).
    data = tool.to_dict()
    assert Tool.from_dict(data).name == name
    return response, step.error is not None


SMOLAGENTS = Case(
    "smolagents",
    {
        "sm_tools.py": '''
            from smolagents import Tool, tool


            class Shout(Tool):
                name = "shout"
                description = "Upper-case a text."
                inputs = {"text": {"type": "string", "description": "The text."}}
                output_type = "string"

                def forward(self, text: str) -> str:
                    if not text.strip():
                        return "Error: nothing to shout"
                    return text.upper() + "!"


            @tool
            def word_count(text: str) -> str:
                """Count the words of a text.

                Args:
                    text: The text.
                """
                import json

                return json.dumps({"words": len(text.split())})
        ''',
    },
    [
        ("shout", {"text": "hi"}, False),
        ("shout", {"text": " "}, True),
        ("word_count", {"text": "a b c"}, False),
    ],
    _smolagents,
    migrated=2,
    error_wraps_text=True,
)


# -- CrewAI: an agent executing a task, with a scripted LLM (ReAct text) ---------------------


def _crewai(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from ca_scripted import ScriptedLLM, call, final
    from crewai import Agent, Task
    from crewai.tools import BaseTool

    tool = _tools(modules, BaseTool)[name]
    llm = ScriptedLLM(model="scripted", replies=[call(False, 1, name, args), final(False, "ok")])
    agent = Agent(role="r", goal="g", backstory="b", llm=llm, tools=[tool])
    agent.execute_task(Task(description="d", expected_output="e", agent=agent))
    seen = []
    for message in llm.last_messages():
        text = message["content"] or ""
        if message["role"] == "tool":
            seen.append(text)
        elif message["role"] == "assistant" and "\nObservation: " in text:
            seen.append(text.split("\nObservation: ", 1)[1])
    return seen[0], bool(agent.last_tool_failures)


CREWAI = Case(
    "crewai",
    {
        "crew_tools.py": '''
            from crewai.tools import BaseTool, tool
            from pydantic import BaseModel, Field

            PRICES = {"apple": 3, "pear": 4}


            class PriceInput(BaseModel):
                item: str = Field(description="the item")


            class PriceLookup(BaseTool):
                name: str = "price_lookup"
                description: str = "The price of an item."
                args_schema: type[BaseModel] = PriceInput

                def _run(self, item: str) -> str:
                    if item not in PRICES:
                        return f"Error: unknown item {item}"
                    return f"{item} costs {PRICES[item]}"


            @tool("stock_check")
            def stock_check(item: str) -> str:
                """Whether an item is in stock."""
                return f"{item}: in stock"
        ''',
    },
    [
        ("price_lookup", {"item": "apple"}, False),
        ("price_lookup", {"item": "kiwi"}, True),
        ("stock_check", {"item": "pear"}, False),
    ],
    _crewai,
    migrated=2,
)


# -- LlamaIndex: `FunctionTool.call`, and the description and schema the model is shown ------


def _llamaindex(modules: list[ModuleType], name: str, args: dict[str, Any]) -> Seen:
    from llama_index.core.tools import FunctionTool

    tool = next(
        t
        for m in modules
        for v in vars(m).values()
        for t in (v if isinstance(v, list) else [v])
        if isinstance(t, FunctionTool) and t.metadata.name == name
    )
    output = tool.call(**args)
    shown = json.dumps(tool.metadata.get_parameters_dict(), sort_keys=True)
    text = f"{output.content}\n[description] {tool.metadata.description}\n[schema] {shown}"
    return text, bool(output.is_error)


LLAMAINDEX = Case(
    "llamaindex",
    {
        "li_tools.py": '''
            from llama_index.core.tools import FunctionTool


            def multiply(a: int, b: int) -> str:
                """Multiply two integers."""
                return str(a * b)


            def lookup(key: str) -> str:
                """Look a key up."""
                if key == "missing":
                    return f"Error: no key {key}"
                return key.upper()


            TOOLS = [
                FunctionTool.from_defaults(fn=multiply),
                FunctionTool.from_defaults(lookup, name="look"),
            ]
        ''',
    },
    [
        ("multiply", {"a": 6, "b": 7}, False),
        ("look", {"key": "k"}, False),
        ("look", {"key": "missing"}, True),
    ],
    _llamaindex,
    migrated=2,
    error_wraps_text=False,
)


CASES = [LANGCHAIN, MCP, AGENTS, PYDANTIC_AI, SMOLAGENTS, CREWAI, LLAMAINDEX]
_IMPORTS = {
    "langchain": "langchain_core",
    "mcp": "mcp",
    "openai-agents": "agents",
    "pydantic-ai": "pydantic_ai",
    "crewai": "crewai",
    "smolagents": "smolagents",
    "llamaindex": "llama_index.core",
}
_counter = iter(range(10_000))


def _load(root: Path, names: list[str]) -> list[ModuleType]:
    loaded = []
    for name in names:
        unique = f"{Path(name).stem}_{next(_counter)}"
        spec = importlib.util.spec_from_file_location(unique, root / name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        spec.loader.exec_module(module)
        loaded.append(module)
    return loaded


def _migrate(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *options, "."], cwd=root, capture_output=True, text=True
    )


@pytest.mark.parametrize("case", CASES, ids=[c.framework for c in CASES])
def test_migrated_tools_give_the_model_the_same_text(case: Case, tmp_path: Path) -> None:
    pytest.importorskip(_IMPORTS[case.framework])
    root = tmp_path / case.framework
    root.mkdir()
    (root / "pyproject.toml").write_text(
        f'[tool.toolwire]\npresets = ["{case.framework}"]\n', encoding="utf-8"
    )
    for name, source in case.modules.items():
        (root / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    before_files = {p.name: p.read_bytes() for p in root.glob("*.py")}
    sources = sorted(before_files)
    sorted_before = subprocess.run([RUFF, "check", "--select", "I", "."], cwd=root)
    assert sorted_before.returncode == 0  # the fixtures are isort-clean to start with

    unused_before = ruff_unused_imports(root)
    before = [case.invoke(_load(root, sources), n, a) for n, a, _ in case.calls]

    done = _migrate(root, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == case.migrated, summary
    skipped = {e["method"]: e["reason"] for e in summary["skipped"]}
    assert skipped.keys() == case.skipped.keys(), skipped
    for name, reason in case.skipped.items():
        assert reason in skipped[name]
    expected_errors = sum(1 for *_, error in case.calls if error)
    assert summary["returns_error_by_marker"] >= 1 if expected_errors else True

    after = [case.invoke(_load(root, sources), n, a) for n, a, _ in case.calls]
    for (name, args, error), (text_before, error_before), (text_after, error_after) in zip(
        case.calls, before, after, strict=True
    ):
        if error and case.error_wraps_text:
            body = text_before.removeprefix("Observation:\n")
            assert body in text_after and text_after != text_before, (name, args)
        else:
            assert text_after == text_before, (name, args)
        assert not error_before, (name, args)
        assert error_after == error, (name, args)

    for path in root.glob("*.py"):
        compile(path.read_bytes(), str(path), "exec")
        assert path.read_bytes() != before_files[path.name], path  # every module had tools
    lint = subprocess.run([RUFF, "check", "--select", "I", "."], cwd=root, capture_output=True)
    assert lint.returncode == 0, lint.stdout
    # No import is left unused by the migration (`@tool` once it became `@result_tool`).
    assert ruff_unused_imports(root) <= unused_before
    again = _migrate(root, "--check")
    assert again.returncode == 0, again.stdout + again.stderr


def test_error_markers_can_be_turned_off(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["mcp"]\nerror-markers = []\n', encoding="utf-8"
    )
    (tmp_path / "server.py").write_text(
        textwrap.dedent(MCP.modules["notes_server.py"]).lstrip(), encoding="utf-8"
    )
    done = _migrate(tmp_path, "--diff")
    assert done.returncode == 0, done.stderr
    assert "ToolResult.error(" not in done.stdout
    assert '+        return ToolResult.text(f"Error: no note named {name!r}")' in done.stdout
    marked = _migrate(tmp_path, "--format", "json")
    assert json.loads(marked.stdout)["returns_error_by_marker"] == 0


def test_a_name_is_never_taken_for_a_framework_object(tmp_path: Path) -> None:
    """`@mcp.tool()` on something that is not a FastMCP (by binding) is not a tool."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["mcp", "pydantic-ai"]\n', encoding="utf-8"
    )
    source = textwrap.dedent(
        """
        from registry import Registry

        mcp = Registry()
        agent = Registry()


        @mcp.tool()
        def lookup(q: str) -> str:
            return q


        @agent.tool_plain
        def roll() -> str:
            return "4"
        """
    ).lstrip()
    (tmp_path / "reg.py").write_text(source, encoding="utf-8")
    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["methods_migrated"] == 0
    assert (tmp_path / "reg.py").read_text(encoding="utf-8") == source
