"""The tool-returns LibCST command (`python -m libcst.tool codemod ...`).

The migration itself is `toolwire.lint.codemods.tool_returns.plan.ToolReturns`; this wraps it
in LibCST's command class, which `toolwire migrate` never imports.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
from libcst.codemod import CodemodContext

from toolwire.lint.codemods.command import ToolwireCommand
from toolwire.lint.codemods.reports import ToolReturnsReport
from toolwire.lint.codemods.tool_returns.plan import ToolReturns
from toolwire.lint.config import Config

__all__ = ["ToolReturnsCommand"]


class ToolReturnsCommand(ToolwireCommand):
    DESCRIPTION = (
        "Migrate tool methods annotated `-> str` to return the typed ToolResult: "
        "`return X` becomes `ToolResult.text(X)` (`.error(X)` in an except handler)."
    )

    def __init__(
        self,
        context: CodemodContext,
        method: Sequence[str] | None = None,
        result_class: str | None = None,
        config_file: str | None = None,
        *,
        config: Config | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(context, method, result_class, config_file, config)
        self.source = source
        self.report = ToolReturnsReport()

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        migration = ToolReturns(self.config)
        tree = migration.run(tree, self.context.filename or "", self.source)
        self.report = migration.report
        for warning in migration.warnings:
            self.warn(warning)
        return tree
