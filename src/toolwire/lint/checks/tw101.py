from __future__ import annotations

import ast
from pathlib import PurePath

from toolwire.lint.analysis.context import Context
from toolwire.lint.checks.base import Check
from toolwire.lint.messages import message


class ToolReturnsStr(Check):
    code = "TW101"

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: Context) -> None:
        if not _is_exactly_str(node.returns, ctx):
            return
        scope = ctx.scope
        cls = scope.cls if isinstance(scope.node, ast.ClassDef) else None
        if cls is not None and node.name in ctx.facts.tool_methods and cls.is_tool:
            name = f"{cls.name}.{node.name}"
            text = message(self.code, "returns-str", name=name, result="ToolResult")
            self.report(ctx, node, text, fix="tool-returns")
        elif ctx.facts.is_shape_tool(node, cls) and not _installed(ctx.path):
            # a tool of a preset's shape (`@tool`, `@mcp.tool()`, `Agent(tools=[f])`...):
            # the same preset data migrate reads
            name = f"{cls.name}.{node.name}" if cls is not None else node.name
            text = message(self.code, "tool-returns-str", name=name, result="ToolResult")
            self.report(ctx, node, text, fix="tool-returns")
        elif (why := ctx.facts.listed_reason(node, cls)) and not _installed(ctx.path):
            # a shape migrate lists and never rewrites: the preset's reason says what to do
            name = f"{cls.name}.{node.name}" if cls is not None else node.name
            self.report(ctx, node, message(self.code, "listed-returns-str", name=name, why=why))

    visit_AsyncFunctionDef = visit_FunctionDef


def _installed(path: str) -> bool:
    """An installed package (a framework's own tools): not the project's to migrate."""
    return not _INSTALLED.isdisjoint(PurePath(path).parts)


_INSTALLED = frozenset({"site-packages", "dist-packages"})


def _is_exactly_str(annotation: ast.expr | None, ctx: Context) -> bool:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.strip() in ("str", "builtins.str")
    return annotation is not None and ctx.facts.names.qualify(annotation) == "builtins.str"
