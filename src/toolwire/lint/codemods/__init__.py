"""The codemods of `toolwire migrate`, as ordinary LibCST commands.

- `toolwire.lint.codemods.tool_returns.ToolReturnsCommand` (tool-returns): tool methods
  annotated `-> str` return `ToolResult.text()` / `ToolResult.error()`;
- `toolwire.lint.codemods.wire_content.WireContentCommand` (wire-content): wire sinks
  receive `<ToolResult>.content`.

`toolwire.lint.codemods.runner` runs both over a tree of files. Beside them: `command` (the
LibCST command class both share), `names` and `imports` (what a module's names are
bound to; how to spell and import the result class), `crossfile` (what the run knows
across files), `reports`, `dict_calls` (calls left for review) and `diffs`. Importing
this package does not load LibCST.
"""
