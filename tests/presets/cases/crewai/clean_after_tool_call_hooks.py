"""After-tool-call hooks that return the content, edit the tool's own text, or keep it;
a function of the same shape that is no hook returns what it likes to its caller."""
# layers: syntax
# (mypy has no hook on a function's return value: hook returns are the syntax layer's)

from crewai.hooks import ToolCallHookContext, after_tool_call, register_after_tool_call_hook

from toolwire import ToolResult
from toolwire.result import ToolArtifact


def lookup(key: str) -> ToolResult:
    rows = [[key, "2 chairs"]]
    return ToolResult.text("1 order", ToolArtifact.table("orders", ["id", "items"], rows))


@after_tool_call
def refreshed(context: ToolCallHookContext) -> str | None:
    return lookup(context.tool_name).content


@after_tool_call(tools=["web_search"])
def redact(context: ToolCallHookContext) -> str | None:
    if context.tool_result and "SECRET" in context.tool_result:
        return context.tool_result.replace("SECRET", "[REDACTED]")
    return None


def keep(context: ToolCallHookContext) -> str | None:
    return None


register_after_tool_call_hook(keep)


def audit(context: ToolCallHookContext) -> object:
    return lookup(context.tool_name)  # not a hook: for its caller
