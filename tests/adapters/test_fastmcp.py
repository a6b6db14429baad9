"""fastmcp adapter: tools of a `fastmcp.FastMCP` called through fastmcp's in-memory `Client`.

The content is the one text block the model reads, an error result is `is_error`, and the
artifacts are only in `meta` (`_meta` on the wire): never in the content, never in
`structured_content`, which a host may give to the model.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from framework_docs import assert_extra_installed, run_page

pytest.importorskip("fastmcp")

from fastmcp import Client, Context, FastMCP
from mcp.types import TextContent

from toolwire import ToolArtifact, ToolResult
from toolwire.adapters.fastmcp import ARTIFACTS_KEY, from_call_tool_result, result_tool

MARKER = "ARTIFACT-ONLY-5c1e"


def call(server: FastMCP, tool: str, arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments, raise_on_error=False)

    return asyncio.run(run())


def listed(server: FastMCP) -> dict[str, Any]:
    async def run() -> Any:
        async with Client(server) as client:
            return {t.name: t for t in await client.list_tools()}

    return asyncio.run(run())


def model_facing(result: Any) -> str:
    """What a client may hand to the model: the blocks and the structured content."""
    blocks = [block.model_dump(mode="json") for block in result.content]
    return json.dumps([blocks, result.structured_content, result.data], default=str)


def stations(city: str) -> ToolResult:
    return ToolResult.text(
        f"{city}: 2 stations",
        ToolArtifact.table("stations", ["id", "note"], [["s1", MARKER], ["s2", "ok"]]),
    )


def test_content_goes_to_the_model_and_artifacts_only_to_meta() -> None:
    server = FastMCP("t")

    @server.tool
    @result_tool
    def lookup(city: str, ctx: Context) -> ToolResult:
        """Look a city up."""
        return stations(city)

    result = call(server, "lookup", {"city": "Oslo"})
    [block] = result.content
    assert isinstance(block, TextContent) and block.text == "Oslo: 2 stations"
    assert not result.is_error
    # what a `-> str` tool sends: the content, never an artifact
    assert result.structured_content == {"result": "Oslo: 2 stations"}
    assert result.meta == {ARTIFACTS_KEY: [a.to_dict() for a in stations("Oslo").artifacts]}
    assert MARKER not in model_facing(result)
    back = from_call_tool_result(result)
    assert back.content == "Oslo: 2 stations"
    assert back.artifacts == stations("Oslo").artifacts


def test_an_error_result_is_is_error_with_the_same_text() -> None:
    server = FastMCP("t")

    @server.tool()
    @result_tool
    async def lookup(city: str) -> ToolResult:
        return ToolResult.error(f"no such city: {city}")

    result = call(server, "lookup", {"city": "Atlantis"})
    assert result.is_error
    assert [b.text for b in result.content] == ["no such city: Atlantis"]
    assert from_call_tool_result(result).is_error


def test_add_tool_and_the_listing_is_the_str_functions() -> None:
    server = FastMCP("t")

    def plain(city: str) -> str:
        """Look a city up."""
        return city

    server.add_tool(result_tool(stations))
    server.add_tool(result_tool(plain))
    tools = listed(server)
    assert tools["stations"].outputSchema == tools["plain"].outputSchema  # as `-> str`
    assert tools["stations"].outputSchema["properties"] == {"result": {"type": "string"}}
    assert list(tools["stations"].inputSchema["properties"]) == ["city"]
    result = call(server, "stations", {"city": "Bergen"})
    assert [b.text for b in result.content] == ["Bergen: 2 stations"]
    assert MARKER not in model_facing(result) and MARKER in json.dumps(result.meta)
    assert [b.text for b in call(server, "plain", {"city": "x"}).content] == ["x"]


def test_a_result_without_artifacts_is_sent_as_the_str_was() -> None:
    def wire(result: Any) -> dict[str, Any]:
        """The client's result whole, and the JSON-RPC result it was parsed from."""
        return {
            "content": [block.model_dump(mode="json") for block in result.content],
            "structured_content": result.structured_content,
            "meta": result.meta,
            "data": result.data,
            "is_error": result.is_error,
        }

    plain, migrated = FastMCP("plain"), FastMCP("migrated")

    @plain.tool
    def lookup(city: str) -> str:
        """Look a city up."""
        return f"{city}: sunny"

    @migrated.tool(name="lookup")
    @result_tool
    def lookup_migrated(city: str) -> ToolResult:
        """Look a city up."""
        return ToolResult.text(f"{city}: sunny")

    before = wire(call(plain, "lookup", {"city": "Oslo"}))
    after = wire(call(migrated, "lookup", {"city": "Oslo"}))
    assert before["structured_content"] == {"result": "Oslo: sunny"}
    assert ARTIFACTS_KEY not in (after["meta"] or {})
    assert after == before  # fastmcp's own `meta` (its `wrap_result` flag) included
    assert listed(migrated)["lookup"] == listed(plain)["lookup"]


def test_a_return_that_is_not_a_result_is_an_error_naming_the_tool() -> None:
    server = FastMCP("t")

    @server.tool
    @result_tool
    def broken() -> ToolResult:
        return {"rows": [MARKER]}  # type: ignore[return-value]

    result = call(server, "broken", {})
    assert result.is_error
    assert "broken" in result.content[0].text and MARKER not in model_facing(result)


def test_the_page_runs_and_names_its_extra() -> None:
    assert_extra_installed("fastmcp")
    run_page("fastmcp.md")
