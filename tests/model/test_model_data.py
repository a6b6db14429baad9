"""The model's sources and return sinks through the syntax layer, and its validation.

A data change is all it takes: each test adds an entry to the core model (as a preset
would) and runs the real engine.
"""

from __future__ import annotations

import dataclasses

import pytest

from toolwire.lint.config import ConfigError, config_from_table, load_config, parse_sink
from toolwire.lint.engine import check_source
from toolwire.lint.model import ClassShape, FunctionShape, ModelError, Source, _parse, load_model


def _codes(source: str, **changes: object) -> list[tuple[int, str]]:
    config = dataclasses.replace(load_config(None), **changes)
    return [(f.line, f.code) for f in check_source(source, "case.py", config)]


SESSION = """\
from gen import Session
from toolwire import ToolResult


async def ask(session: Session) -> str:
    result = await session.call_tool("search", {})
    return f"Tool execution result: {result}"


async def opened() -> None:
    async with Session() as session:
        found = await session.call_tool("search", {})
        print(found)
        print(found.content)
"""


def test_a_source_call_returns_a_result() -> None:
    model = load_model()
    with_source = dataclasses.replace(
        model, sources=(Source("gen.Session.call_tool", "toolwire.ToolResult"),)
    )
    assert _codes(SESSION, model=with_source) == [(7, "TW202"), (13, "TW204")]
    assert _codes(SESSION, model=model) == []  # without the entry, nothing is known


TOOLS = """\
from gen import BaseTool, tool
from toolwire import ToolResult


@tool
def search(result: ToolResult) -> object:
    return result.artifacts


@tool(name="x")
def fine(result: ToolResult) -> object:
    return result.content


class Lookup(BaseTool):
    def _run(self, result: ToolResult) -> object:
        return result

    def helper(self, result: ToolResult) -> object:
        return result
"""


def test_what_a_tool_of_a_preset_shape_returns_is_checked() -> None:
    model = load_model()
    shapes = dataclasses.replace(
        model,
        function_tools=(
            FunctionShape(
                "gen",
                frozenset({"gen.tool"}),
                frozenset(),
                frozenset(),
                frozenset(),
                "a.b",
                "replace",
                False,
            ),
        ),
        class_tools=(ClassShape("gen", frozenset({"gen.BaseTool"}), ("_run",), "a.C", False),),
    )
    assert _codes(TOOLS, model=shapes) == [(7, "TW302"), (17, "TW201")]
    assert _codes(TOOLS, model=model) == []


def test_a_model_file_with_an_unknown_key_is_an_error() -> None:
    with pytest.raises(ModelError, match="unknown key 'stringifier'"):
        _parse("x.toml", {"stringifier": ["builtins.str"]})
    with pytest.raises(ModelError, match="safe-strings"):
        _parse("x.toml", {"result-types": [{"class": "a.B", "safe-strings": ["bytes"]}]})


def test_sinks_named_by_their_public_path_load_and_know_their_definition() -> None:
    config = config_from_table(
        {
            "egress-sinks": [
                "langchain_core.messages.HumanMessage:content",
                "pydantic_ai.ToolReturn:return_value",
            ],
            "wire-sinks": ["mcp.types.TextContent:text"],
        }
    )
    human, tool_return = config.egress_sinks
    assert (human.index, human.aliases) == (0, ("langchain_core.messages.human.HumanMessage",))
    assert (tool_return.index, tool_return.aliases) == (0, ("pydantic_ai.messages.ToolReturn",))
    (text,) = config.wire_sinks
    assert (text.index, text.name) == (None, "text")  # a pydantic field: keyword only


def test_a_missing_parameter_suggests_position_and_name() -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_table({"wire-sinks": ["langchain_core.messages.HumanMessage:text"]})
    message = str(caught.value)
    assert "HumanMessage:N=text" in message and ":1'" not in message


def test_position_and_name_come_from_the_spec_alone() -> None:
    (sink,) = config_from_table({"wire-sinks": ["nowhere.to.be.Found:0=content"]}).wire_sinks
    assert (sink.index, sink.name) == (0, "content")
    source = "from nowhere.to.be import Found\nfrom toolwire import ToolResult\n\n\n"
    source += "def f(r: ToolResult) -> None:\n    Found(r)\n    Found(content=r)\n"
    config = dataclasses.replace(load_config(None), wire_sinks=(sink,))
    found = [(f.line, f.code) for f in check_source(source, "case.py", config)]
    assert found == [(6, "TW301"), (7, "TW301")]


SHAPED = """\
from gen import Server, Spec, Tool, make
from toolwire import ToolResult

server = Server()
mcp = make()
twice = Server()
twice = make()


@server.tool()
def bound(result: ToolResult) -> object:
    return result.artifacts


@mcp.tool()
def by_name_only(result: ToolResult) -> object:
    return result.artifacts


@twice.tool
def rebound(result: ToolResult) -> object:
    return result.artifacts


def handed(result: ToolResult) -> object:
    return result.artifacts


def first(result: ToolResult) -> object:
    return result


def kept(result: ToolResult) -> object:
    return result.artifacts


class Lister(Spec):
    spec_functions = ["listed", ("pair", "apair")]

    def listed(self, result: ToolResult) -> object:
        return result.artifacts

    def apair(self, result: ToolResult) -> object:
        return result

    def helper(self, result: ToolResult) -> object:
        return result.artifacts


tools = [Tool.from_defaults(fn=handed), Tool.from_defaults(first), Tool.other(kept)]
"""


def test_every_tool_shape_is_a_return_sink_found_through_imports() -> None:
    shapes = dataclasses.replace(
        load_model(),
        function_tools=(
            FunctionShape(
                "gen",
                frozenset(),
                frozenset({"gen.Server"}),
                frozenset({"tool"}),
                frozenset({"gen.Tool.from_defaults"}),
                "a.b",
                "under",
                False,
                factory_keywords=("fn",),
            ),
        ),
        class_tools=(
            ClassShape("gen", frozenset({"gen.Spec"}), (), "a.C", False, "spec_functions"),
        ),
    )
    assert _codes(SHAPED, model=shapes) == [
        (12, "TW302"),
        (26, "TW302"),
        (30, "TW201"),
        (41, "TW302"),
        (44, "TW201"),
    ]


def test_a_tool_shape_off_the_schema_is_an_error() -> None:
    with pytest.raises(ModelError, match="function-tools: unknown key 'decorator'"):
        _parse("x.toml", {"function-tools": [{"decorator": ["a.b"], "adapter": "a.c"}]})
    with pytest.raises(ModelError, match="class-tools: each needs an `adapter`"):
        _parse("x.toml", {"class-tools": [{"bases": ["a.B"], "methods": ["run"]}]})
    with pytest.raises(ModelError, match="`wire` is replace, under or factory"):
        _parse("x.toml", {"function-tools": [{"adapter": "a.c", "wire": "over"}]})


def test_presets_load_without_reading_framework_sources() -> None:
    from toolwire.lint import signatures

    signatures._signature.cache_clear()
    config = config_from_table({"presets": ["langchain", "mcp", "pydantic-ai", "llamaindex"]})
    assert signatures._signature.cache_info().misses == 0
    # a module that imports from the package looks the definition's name up
    source = "from langchain_core.messages.human import HumanMessage\n"
    source += "from toolwire import ToolResult\n\n\n"
    source += "def f(r: ToolResult) -> None:\n    HumanMessage(r)\n"
    found = [(f.line, f.code) for f in check_source(source, "case.py", config)]
    assert found == [(6, "TW201")]
    assert signatures._signature.cache_info().misses > 0
    # one that does not import from it reads nothing
    signatures._signature.cache_clear()
    check_source("import os\n\nos.getcwd()\n", "other.py", config)
    assert signatures._signature.cache_info().misses == 0


RUNS = """\
from gen import Call, Runner
from toolwire import ToolResult


def run(runner: Runner, call: Call, text: str) -> None:
    print(runner.run(call))
    print(runner.run({"kind": "call", "id": "1"}))
    print(runner.run(Call()))
    print(runner.run(text))
    print(runner.run({"kind": "other"}))
"""


def test_a_source_with_an_argument_condition_needs_that_argument() -> None:
    model = load_model()
    conditional = Source(
        "gen.Runner.run", "toolwire.ToolResult", "0=item", ("gen.Call", "kind=call")
    )
    assert _codes(RUNS, model=dataclasses.replace(model, sources=(conditional,))) == [
        (6, "TW204"),
        (7, "TW204"),
        (8, "TW204"),
    ]
    plain = Source("gen.Runner.run", "toolwire.ToolResult")
    assert len(_codes(RUNS, model=dataclasses.replace(model, sources=(plain,)))) == 5


SLOTS = """\
import json
from gen import Reply


def fetch(key: str) -> list[str]:
    return [key]


def leaky(key: str) -> Reply:
    rows = fetch(key)
    return Reply(json.dumps(rows), extra=rows)


def fine(key: str) -> Reply:
    rows = fetch(key)
    return Reply(f"{len(rows)} rows", extra=rows)
"""


def test_a_run_only_argument_seeds_what_it_is_given() -> None:
    config = load_config(None)
    model = dataclasses.replace(config.model, run_only_arguments=("gen.Reply:*=extra",))
    sinks = [parse_sink(None, "wire-sinks", "gen.Reply:0=text", ())]
    assert _codes(SLOTS, model=model, wire_sinks=tuple(sinks)) == [(11, "TW302")]
    assert _codes(SLOTS, wire_sinks=tuple(sinks)) == []  # without the entry, nothing is known


def test_source_conditions_and_run_only_arguments_off_the_schema_are_errors() -> None:
    source = {"call": "a.B.run", "returns": "a.R"}
    with pytest.raises(ModelError, match="`argument-is`"):
        _parse("x.toml", {"sources": [{**source, "argument": "0=item"}]})
    with pytest.raises(ModelError, match="`argument-is`"):
        _parse("x.toml", {"sources": [{**source, "argument": "item", "argument-is": ["a.C"]}]})
    with pytest.raises(ModelError, match="run-only-arguments"):
        _parse("x.toml", {"run-only-arguments": ["a.Reply:extra"]})


def test_handed_and_instance_returns_off_the_schema_are_errors() -> None:
    with pytest.raises(ModelError, match="state-returns"):
        _parse("x.toml", {"state-returns": ["a.Graph.add_node"]})
    with pytest.raises(ModelError, match="wire-returns"):
        _parse("x.toml", {"wire-returns": ["a.hook:func"]})
    with pytest.raises(ModelError, match="instance-returns"):
        _parse("x.toml", {"instance-returns": ["a.Graph.compile"]})
    parsed = _parse("x.toml", {"instance-returns": ["a.Graph.compile=a.Compiled"]})
    assert parsed["instance-returns"] == ("a.Graph.compile=a.Compiled",)


def test_instance_attributes_off_the_schema_are_errors() -> None:
    with pytest.raises(ModelError, match="instance-attributes"):
        _parse("x.toml", {"instance-attributes": ["a.Context.state"]})
    spec = "a.Context.state=a.State"
    assert _parse("x.toml", {"instance-attributes": [spec]})["instance-attributes"] == (spec,)
