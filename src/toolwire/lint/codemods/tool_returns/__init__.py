"""tool-returns: tool methods annotated `-> str` return the result class instead.

`return X` becomes `ToolResult.text(X)`, or `ToolResult.error(X)` inside an `except`
handler; the annotation becomes the result class and the import is added once. A
method the codemod cannot migrate without guessing is left alone and reported.

One module's migration, by topic:

- `discovery`: which functions a framework makes tools (decorators, factories, lists);
- `structure`: the plan's units (a tool class, a tool method) and the module's blocks;
- `scan`: the returns of one method, and whether it can return `None`;
- `decorators`: the decorators that hand a return value back unchanged;
- `holds`: why a method that could migrate stays as it is (its family, the adapter
  base, a use of its `str`);
- `plan`: `ToolReturns`, the plan of a module's returns, run after run;
- `rewrite`: applies the plan; `walk`: the cheap statement walk both use;
- `command`: `ToolReturnsCommand`, the LibCST command.

The command is loaded on first use: `toolwire migrate` imports `plan` without paying
for `libcst.codemod`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwire.lint.codemods.reports import MethodEvent, ToolReturnsReport

if TYPE_CHECKING:
    from toolwire.lint.codemods.tool_returns.command import ToolReturnsCommand
    from toolwire.lint.codemods.tool_returns.plan import ToolReturns

__all__ = ["MethodEvent", "ToolReturns", "ToolReturnsCommand", "ToolReturnsReport"]


def __getattr__(name: str) -> object:
    if name == "ToolReturnsCommand":
        from toolwire.lint.codemods.tool_returns.command import ToolReturnsCommand

        return ToolReturnsCommand
    if name == "ToolReturns":
        from toolwire.lint.codemods.tool_returns.plan import ToolReturns

        return ToolReturns
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
