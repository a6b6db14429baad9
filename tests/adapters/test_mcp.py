"""MCP adapter: FastMCP tools called by a real client session, and the client converter.

Most tests run a FastMCP server and a client connected in memory (the SDK's own test
transport); one runs the server as a subprocess and speaks JSON-RPC to it over stdio, so
the bytes on the wire are checked as well. CI runs them on mcp 1.x (crewai pins `mcp<2`);
they run unchanged on mcp 2.x, where FastMCP is `MCPServer` and `Client` connects.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import pytest
from framework_docs import assert_extra_installed, blocks, install_extras, run_page

pytest.importorskip("mcp")

from mcp.types import CallToolResult, TextContent

try:
    from mcp.server.fastmcp import Context, FastMCP, Image
    from mcp.shared.memory import create_connected_server_and_client_session as connect
except ModuleNotFoundError:  # mcp 2.x
    from mcp import Client as connect  # type: ignore[no-redef]
    from mcp.server.mcpserver import Context, Image  # type: ignore[no-redef]
    from mcp.server.mcpserver import MCPServer as FastMCP  # type: ignore[no-redef]

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.mcp import (
    ARTIFACTS_KEY,
    from_call_tool_result,
    result_tool,
    to_call_tool_result,
)

HERE = Path(__file__).parent
MCP2 = metadata.version("mcp").startswith("2.")
MARKER = "ARTIFACT-ONLY-7f3a"
T = TypeVar("T")


def talk(server: FastMCP, conversation: Callable[[Any], Awaitable[T]]) -> T:
    async def run() -> T:
        async with connect(server) as session:
            return await conversation(session)

    return asyncio.run(run())


def call(server: FastMCP, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    return talk(server, lambda session: session.call_tool(tool, arguments))


def listed(server: FastMCP) -> list[dict[str, Any]]:
    async def tools(session: Any) -> list[dict[str, Any]]:
        return [t.model_dump(by_alias=True) for t in (await session.list_tools()).tools]

    return talk(server, tools)


def table_result(city: str) -> ToolResult:
    return ToolResult.text(
        f"{city}: 3 stations",
        ToolArtifact.table("stations", ["id", "note"], [["s1", MARKER], ["s2", "ok"]]),
        ToolArtifact.text("raw", f"raw dump {MARKER}"),
    )


def without_sdk_keys(message: dict[str, Any]) -> dict[str, Any]:
    """A result's JSON without what mcp 2.x adds to every result (`resultType`, serverInfo)."""
    data = {key: value for key, value in message.items() if key != "resultType"}
    meta = {
        key: value
        for key, value in data.pop("_meta", {}).items()
        if not key.startswith("io.modelcontextprotocol/")
    }
    return data | ({"_meta": meta} if meta else {})


def wire(result: CallToolResult) -> dict[str, Any]:
    """The result as its JSON on the wire, by the protocol's names in mcp 1.x and 2.x alike."""
    return without_sdk_keys(result.model_dump(mode="json", by_alias=True, exclude_none=True))


def model_facing(result: CallToolResult) -> str:
    """Everything a client may hand to the model: the content blocks and structuredContent."""
    data = wire(result)
    return json.dumps([data["content"], data.get("structuredContent")])


def test_content_is_one_text_block_and_artifacts_are_in_meta() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    def lookup(city: str) -> ToolResult:
        """Look up a city."""
        return table_result(city)

    result = call(server, "lookup", {"city": "Oslo"})
    expected = table_result("Oslo")
    [block] = result.content
    assert isinstance(block, TextContent)
    assert block.text == expected.content == "Oslo: 3 stations"
    assert wire(result) == {
        "content": [{"type": "text", "text": "Oslo: 3 stations"}],
        "isError": False,
        "_meta": {ARTIFACTS_KEY: [a.to_dict() for a in expected.artifacts]},
        "structuredContent": {"result": "Oslo: 3 stations"},  # as a `-> str` tool's
    }
    assert MARKER not in model_facing(result)
    assert MARKER in json.dumps(wire(result)["_meta"])


def test_error_result_is_is_error_with_the_exact_text() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    async def broken(city: str) -> ToolResult:
        return ToolResult.error(f"no data for {city}")

    result = call(server, "broken", {"city": "Oslo"})
    assert wire(result) == {
        "content": [{"type": "text", "text": "no data for Oslo"}],
        "isError": True,
        "structuredContent": {"result": "no data for Oslo"},
    }
    assert from_call_tool_result(result) == ToolResult.error("no data for Oslo")


def test_listed_and_sent_as_the_same_function_returning_str() -> None:
    # Issue 24: a migrated `-> str` tool keeps the SDK's outputSchema and structuredContent
    # {"result": ...}; both carry the content only, never an artifact.
    def same_function_returning(text: str) -> Callable[..., str]:
        def lookup(city: str, limit: int = 3, *, exact: bool = False) -> str:
            """Look up a city."""
            return text

        return lookup

    for options in ({}, {"structured_output": False}, {"structured_output": True}):
        wrapped, plain = FastMCP("a"), FastMCP("b")

        @wrapped.tool(**options)
        @result_tool
        def lookup(city: str, limit: int = 3, *, exact: bool = False) -> ToolResult:
            """Look up a city."""
            return ToolResult.text(f"{city}: 3 stations")

        plain.add_tool(same_function_returning("Oslo: 3 stations"), **options)
        assert listed(wrapped) == listed(plain), options
        assert set(listed(wrapped)[0]["inputSchema"]["properties"]) == {"city", "limit", "exact"}
        sent = wire(call(wrapped, "lookup", {"city": "Oslo"}))
        assert sent == wire(call(plain, "lookup", {"city": "Oslo"})), options
    assert listed(wrapped)[0]["outputSchema"]["properties"] == {
        "result": {"title": "Result", "type": "string"}
    }


def test_structured_output_carries_the_content_and_never_the_artifacts() -> None:
    server = FastMCP("t")

    @server.tool(structured_output=True)
    @result_tool
    def lookup(city: str) -> ToolResult:
        return table_result(city)

    assert listed(server)[0]["outputSchema"]["properties"] == {
        "result": {"title": "Result", "type": "string"}
    }
    result = call(server, "lookup", {"city": "Oslo"})
    assert wire(result)["structuredContent"] == {"result": "Oslo: 3 stations"}
    assert MARKER not in model_facing(result)
    assert from_call_tool_result(result) == table_result("Oslo")


def test_context_is_still_injected_and_kept_out_of_the_schema() -> None:
    server = FastMCP("t")
    seen: list[str] = []

    @server.tool()
    @result_tool
    async def lookup(city: str, ctx: Context) -> ToolResult:  # type: ignore[type-arg]
        seen.append(type(ctx).__name__)
        await ctx.info("looking up")
        return table_result(city)

    assert set(listed(server)[0]["inputSchema"]["properties"]) == {"city"}
    result = call(server, "lookup", {"city": "Oslo"})
    assert seen == ["Context"]
    assert wire(result)["content"] == [{"type": "text", "text": "Oslo: 3 stations"}]


def test_a_str_return_is_text_and_any_other_value_is_an_error_naming_the_tool() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    def legacy(city: str) -> str:
        return f"{city} as text"

    @server.tool()
    @result_tool
    def wrong(city: str) -> ToolResult:
        return {"secret": MARKER}  # type: ignore[return-value]

    @server.tool()
    @result_tool
    def raises(city: str) -> ToolResult:
        raise RuntimeError("backend down")

    assert wire(call(server, "legacy", {"city": "Oslo"}))["content"] == [
        {"type": "text", "text": "Oslo as text"}
    ]
    wrong_type = wire(call(server, "wrong", {"city": "Oslo"}))
    assert wrong_type["isError"] is True
    [block] = wrong_type["content"]
    assert block["text"].startswith("Error executing tool wrong")
    assert MARKER not in json.dumps(wrong_type)
    raised = wire(call(server, "raises", {"city": "Oslo"}))
    assert raised["isError"] is True
    assert raised["content"][0]["text"].startswith("Error executing tool raises")
    if not MCP2:  # mcp 2.x keeps a crash's text on the server
        assert "wrong returned dict, not a ToolResult" in block["text"]
        assert "backend down" in raised["content"][0]["text"]


def test_artifact_data_json_cannot_encode_collapses_instead_of_breaking_the_call() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    def odd(city: str) -> ToolResult:
        return ToolResult.text("done", ToolArtifact("blob", "b", {"n": float("nan")}))

    result = wire(call(server, "odd", {"city": "x"}))
    assert result["content"] == [{"type": "text", "text": "done"}]
    assert result["_meta"] == {
        ARTIFACTS_KEY: [
            {"type": "text", "label": "Artifacts omitted", "data": {"text": "could not be encoded"}}
        ]
    }


def test_client_round_trip_gives_back_the_same_result() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    def lookup(city: str) -> ToolResult:
        return table_result(city)

    back = from_call_tool_result(call(server, "lookup", {"city": "Oslo"}))
    assert back == table_result("Oslo")
    assert back.artifacts[0].data["rows"][0][1] == MARKER
    with pytest.raises(TypeError, match="no string form"):
        str(back)
    with pytest.raises(TypeError, match="no string form"):
        f"{back}"
    assert from_call_tool_result(to_call_tool_result(table_result("x"))) == table_result("x")


def test_client_keeps_non_text_blocks_and_structured_content_out_of_content() -> None:
    server = FastMCP("t")

    @server.tool(structured_output=False)
    def picture(city: str) -> list[TextContent | Image]:
        return [
            TextContent(type="text", text=f"{city} map"),
            Image(data=b"\x89PNG", format="png"),
            TextContent(type="text", text="legend"),
        ]

    @server.tool()
    def plain(city: str) -> str:
        return f"{city} plain"

    @server.tool()
    def record(city: str) -> dict[str, int]:
        return {"population": len(city)}

    pic = from_call_tool_result(call(server, "picture", {"city": "Oslo"}))
    assert pic.content == "Oslo map\nlegend"
    [image] = pic.artifacts
    assert (image.type, image.label) == ("mcp/image", "image/png")
    assert image.data == {"type": "image", "data": "iVBORw==", "mimeType": "image/png"}
    # A `str` tool's structuredContent {"result": <the text>} repeats the content.
    assert from_call_tool_result(call(server, "plain", {"city": "Oslo"})).artifacts == ()
    structured = from_call_tool_result(call(server, "record", {"city": "Oslo"}))
    assert structured.content == '{\n  "population": 4\n}'
    assert [(a.type, a.label, a.data) for a in structured.artifacts] == [
        ("mcp/structuredContent", "structuredContent", {"population": 4})
    ]


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ({ARTIFACTS_KEY: {"type": "text"}}, "must be a list"),
        ({ARTIFACTS_KEY: [{"type": "text", "label": "x"}]}, r"\[0\] is not a"),
        ({ARTIFACTS_KEY: [{"type": "", "label": "x", "data": 1}]}, r"\[0\]: artifact type"),
        ({ARTIFACTS_KEY: [{"type": "t", "label": 3, "data": 1}]}, r"\[0\]: artifact label"),
    ],
)
def test_client_rejects_malformed_artifact_records(meta: dict[str, Any], message: str) -> None:
    result = CallToolResult.model_validate(
        {"content": [{"type": "text", "text": "x"}], "_meta": meta}
    )
    with pytest.raises(ValueError, match=message):
        from_call_tool_result(result)


def test_other_meta_keys_are_ignored() -> None:
    result = CallToolResult.model_validate(
        {"content": [{"type": "text", "text": "x"}], "_meta": {"other/key": [1]}}
    )
    assert from_call_tool_result(result) == ToolResult.text("x")


def test_raw_json_rpc_over_stdio() -> None:
    """The server in a subprocess; the literal response line is what any client reads."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "lookup", "arguments": {"city": "Oslo"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "broken", "arguments": {"city": "Oslo"}}},
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "mcp_server.py")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env,
    )  # fmt: skip
    # The server cancels what is in flight when stdin closes: keep it open until answered.
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()
        lines: dict[object, tuple[str, dict[str, Any]]] = {}
        while not {1, 2, 3, 4} <= lines.keys():
            line = proc.stdout.readline()
            assert line, "the server exited before answering every request"
            message = json.loads(line)
            lines[message.get("id")] = (line, message)
    finally:
        watchdog.cancel()
        proc.communicate()
    [tool, _] = lines[2][1]["result"]["tools"]
    assert tool["outputSchema"]["properties"] == {"result": {"title": "Result", "type": "string"}}
    raw, message = lines[3]
    result = message["result"]
    assert result["content"] == [{"type": "text", "text": "Oslo: 3 stations"}]
    assert result["structuredContent"] == {"result": "Oslo: 3 stations"}
    assert result["isError"] is False
    assert MARKER in raw
    assert MARKER not in json.dumps(result["content"])
    assert result["_meta"][ARTIFACTS_KEY][0] == {
        "type": "table",
        "label": "stations",
        "data": {"columns": ["id", "note"], "rows": [["s1", MARKER]]},
    }
    back = from_call_tool_result(CallToolResult.model_validate(result))
    assert back.content == "Oslo: 3 stations"
    assert back.artifacts[0].data["rows"] == [["s1", MARKER]]
    error = without_sdk_keys(lines[4][1]["result"])
    assert error == {
        "content": [{"type": "text", "text": "no data for Oslo"}],
        "isError": True,
        "structuredContent": {"result": "no data for Oslo"},
    }


def test_the_adapter_does_not_give_tool_result_a_string_form() -> None:
    result = table_result("Oslo")
    for stringify in (str, lambda r: format(r, ""), bytes):
        with pytest.raises(TypeError):
            stringify(result)
    with pytest.raises(TypeError, match="expected a ToolResult"):
        to_call_tool_result("text")  # type: ignore[arg-type]


def test_every_block_of_the_docs_page_runs() -> None:
    """Python blocks run top to bottom in one namespace; the install command is checked."""
    known = [("python",), ("python", "mcp2"), ("console", "norun")]
    assert all(b.info in known for b in blocks("mcp.md")), "a block this test does not run"
    # Blocks are for mcp 1.x's FastMCP, except those marked `python mcp2`.
    run_page("mcp.md", info=("python", "mcp2") if MCP2 else ("python",))
    # Installing needs the network; the command must name the extra these tests run with.
    assert install_extras("mcp.md") == ["mcp"]
    assert_extra_installed("mcp")
