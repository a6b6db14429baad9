"""tool-returns: tool methods annotated `-> str` return the result class instead.

`return X` becomes `ToolResult.text(X)`, or `ToolResult.error(X)` inside an `except`
handler; the annotation becomes the result class and the import is added once. A
method the codemod cannot migrate without guessing is left alone and reported.
The migration lives in `toolwire.codemods._returns`; this is its LibCST command.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
from libcst.codemod import CodemodContext

from toolwire.codemods._command import ToolwireCommand
from toolwire.codemods._reports import MethodEvent, ToolReturnsReport
from toolwire.codemods._returns import ToolReturns
from toolwire.config import Config

__all__ = ["MethodEvent", "ToolReturnsCommand", "ToolReturnsReport"]


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
