"""CrewAI after-tool-call hooks: a string a hook returns replaces the tool's answer, so it
is the wire: a whole result, text made of one, or its artifacts there are leaks.
"""
# layers: syntax
# (mypy has no hook on a function's return value: hook returns are the syntax layer's)

from crewai.hooks import ToolCallHookContext, after_tool_call, register_after_tool_call_hook

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@after_tool_call
def quoted(context: ToolCallHookContext) -> str | None:
    return f"Orders: {lookup(context.tool_name)}"  # expect: TW202, TW301


@after_tool_call(tools=["orders"])
def records(context: ToolCallHookContext) -> object:
    return str([a.data for a in lookup(context.tool_name).artifacts])  # expect: TW302


def whole(context: ToolCallHookContext) -> object:
    return lookup(context.tool_name)  # expect: TW301


register_after_tool_call_hook(whole)
