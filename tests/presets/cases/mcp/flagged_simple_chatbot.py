"""The MCP python-sdk's simple-chatbot, rebuilt: the prompt gets the whole CallToolResult.

Its string form includes `structuredContent`, `_meta` and every block's `_meta`.
"""

import logging

from mcp import ClientSession


async def process_llm_response(session: ClientSession, tool: str, arguments: dict[str, object]) -> str:
    result = await session.call_tool(tool, arguments)
    logging.info(f"Executing {tool}")
    return f"Tool execution result: {result}"  # expect: TW202


async def as_message(session: ClientSession, tool: str) -> dict[str, str]:
    result = await session.call_tool(tool, {})
    return {"role": "system", "content": "Tool execution result: " + str(result)}  # expect: TW201
