"""wire-content: hand wire sinks `<ToolResult>.content`, never the whole result.

There is one inference, the checks' syntax layer: every finding it marks with
`fix == "wire-content"` is a rewrite. TW301 locates a sink payload that is provably a
ToolResult (`x` becomes `x.content`); TW201 locates a `str(x)` of one (it becomes
`x.content`). Anything the analysis cannot prove is left alone for review.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.metadata import CodeRange, PositionProvider, Scope, ScopeProvider

from toolwire.lint.codemods.command import ToolwireCommand
from toolwire.lint.codemods.reports import FIX, REVIEW_CODES, Span, span_of, split_findings
from toolwire.lint.config import Config
from toolwire.lint.engine import check_source, module_name
from toolwire.lint.findings import Finding

__all__ = ["FIX", "REVIEW_CODES", "WireContentCommand", "WireContentReport", "split_findings"]

_N = TypeVar("_N", bound=cst.CSTNode)
# Expressions that take `.content` without parentheses.
_ATOMS = (
    cst.Name,
    cst.Attribute,
    cst.Call,
    cst.Subscript,
    cst.List,
    cst.ListComp,
    cst.Dict,
    cst.DictComp,
    cst.Set,
    cst.SetComp,
    cst.SimpleString,
    cst.FormattedString,
)


@dataclass(slots=True)
class WireContentReport:
    sinks: int = 0  # payloads moved to `.content`
    str_calls: int = 0  # `str(result)` moved to `result.content`
    review: list[Finding] = field(default_factory=list)  # unproven payloads, left alone
    unmatched: list[Finding] = field(default_factory=list)  # a fix span with no CST node


def _key(position: CodeRange) -> Span:
    return (
        position.start.line,
        position.start.column + 1,
        position.end.line,
        position.end.column + 1,
    )


def with_content(value: cst.BaseExpression) -> cst.Attribute:
    if not isinstance(value, _ATOMS) and not value.lpar:
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Attribute(value=value, attr=cst.Name("content"))


class WireContentCommand(ToolwireCommand):
    DESCRIPTION = (
        "At every configured wire sink, hand over `<ToolResult>.content` instead of the "
        "whole result, and turn `str(<ToolResult>)` into `<ToolResult>.content`."
    )
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def __init__(
        self,
        context: CodemodContext,
        method: Sequence[str] | None = None,
        result_class: str | None = None,
        config_file: str | None = None,
        known_tool: Sequence[str] | None = None,
        *,
        config: Config | None = None,
        known_tools: frozenset[str] = frozenset(),
        findings: Sequence[Finding] | None = None,
    ) -> None:
        super().__init__(context, method, result_class, config_file, config)
        self.known_tools = known_tools | frozenset(known_tool or ())
        self.findings = findings
        self.report = WireContentReport()
        self._content: set[Span] = set()
        self._stringify: set[Span] = set()
        self._done: set[Span] = set()
        self._made: set[int] = set()  # ids of `.content` nodes this run created

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        ToolwireCommand.add_args(arg_parser)
        arg_parser.add_argument(
            "--known-tool",
            action="append",
            default=None,
            help="dotted name of a class whose tool methods return the result class",
        )

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        findings = self.findings
        if findings is None:
            config = self.config
            filename = self.context.filename or "<stdin>"
            module = module_name(Path(filename), config) if self.context.filename else None
            findings = check_source(
                tree.code,
                filename,
                config,
                module=module,
                known_tools=self.known_tools,
                suppress=False,
            )
        self._content, self._stringify, review = split_findings(findings)
        self.report.review.extend(review)
        if not (self._content or self._stringify):
            return tree
        tree = tree.visit(self)
        wanted = {*self._content, *self._stringify} - self._done
        for finding in findings:
            if finding.fix == FIX and span_of(finding) in wanted:
                self.report.unmatched.append(finding)
                self.warn(f"line {finding.line}: no expression at the span of {finding.code}")
        return tree

    def on_visit(self, node: cst.CSTNode) -> bool:
        position = self.get_metadata(PositionProvider, node, None)
        if position is not None and not isinstance(node, cst.Module):
            start = (position.start.line, position.start.column + 1)
            end = (position.end.line, position.end.column + 1)
            if not any(
                start <= (s[0], s[1]) and (s[2], s[3]) <= end
                for s in (*self._content, *self._stringify)
            ):
                return False
        return super().on_visit(node)

    def on_leave(self, original_node: _N, updated_node: _N) -> _N | cst.RemovalSentinel:
        result = super().on_leave(original_node, updated_node)
        if isinstance(original_node, cst.BaseExpression) and isinstance(result, cst.BaseExpression):
            return cast(_N, self._rewrite(original_node, result))
        return result

    def _rewrite(
        self, original_node: cst.BaseExpression, result: cst.BaseExpression
    ) -> cst.BaseExpression:
        position = self.get_metadata(PositionProvider, original_node, None)
        if position is None:
            return result
        key = _key(position)
        if key in self._done:
            return result
        if key in self._content or key in self._stringify:
            rebound = self._rebound(original_node)
            if rebound is not None:
                self._done.add(key)
                self.report.review.append(
                    Finding(
                        self.context.filename or "<stdin>",
                        key[0],
                        key[1],
                        "TW301",
                        f"`{rebound}` is also assigned through `nonlocal`/`global` in "
                        "another function, so it may not hold the ToolResult here: "
                        "left for a person (`.content` is the text)",
                        key[2],
                        key[3],
                    )
                )
                return result
        if key in self._stringify:
            replaced = self._unstringify(result)
            if replaced is not None:
                self._done.add(key)
                self.report.str_calls += 1
                return replaced
        elif key in self._content:
            self._done.add(key)
            self.report.sinks += 1
            return self._made_node(with_content(result))
        return result

    def _rebound(self, node: cst.CSTNode) -> str | None:
        """A name in `node` that some function rebinds through `nonlocal`/`global`.

        Such an assignment is recorded in the scope that owns the name, while the node
        itself sits in the other function's scope; the checks' flow does not follow it.
        """
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.Attribute):
                stack.append(current.value)
                continue
            if isinstance(current, cst.Name):
                scope = self.get_metadata(ScopeProvider, current, None)
                if isinstance(scope, Scope) and current.value in scope:
                    for assignment in scope[current.value]:
                        made = getattr(assignment, "node", None)  # builtins have none
                        if made is None:
                            continue
                        where = self.get_metadata(ScopeProvider, made, None)
                        if where is not None and where is not assignment.scope:
                            return current.value
                continue
            stack.extend(current.children)
        return None

    def _unstringify(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        if not (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "str"
            and len(node.args) == 1
            and node.args[0].keyword is None
            and node.args[0].star == ""
        ):
            return None
        inner = node.args[0].value
        # A payload inside was already moved to `.content`: the str() call simply goes.
        moved = inner if id(inner) in self._made else with_content(inner)
        assert isinstance(moved, cst.Attribute)
        return self._made_node(moved.with_changes(lpar=node.lpar, rpar=node.rpar))

    def _made_node(self, node: cst.Attribute) -> cst.Attribute:
        self._made.add(id(node))
        return node
