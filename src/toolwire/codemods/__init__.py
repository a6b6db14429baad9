"""The codemods of `toolwire migrate`, as ordinary LibCST commands.

- `toolwire.codemods.tool_returns.ToolReturnsCommand` (tool-returns): tool methods
  annotated `-> str` return `ToolResult.text()` / `ToolResult.error()`;
- `toolwire.codemods.wire_content.WireContentCommand` (wire-content): wire sinks
  receive `<ToolResult>.content`.

`toolwire.codemods.runner` runs both over a tree of files. Importing this package does
not load LibCST.
"""
