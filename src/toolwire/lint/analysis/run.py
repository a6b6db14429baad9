"""The analysis of one parsed module: the pre-filters, the module facts, then the value
flow with the checks the caller hands it."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import NamedTuple

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import Context, Visitors
from toolwire.lint.analysis.facts import ModuleFacts
from toolwire.lint.analysis.flow import Flow
from toolwire.lint.analysis.modules import Link
from toolwire.lint.analysis.names import is_package
from toolwire.lint.analysis.units import irrelevant_units, maybe_str_functions, relevant
from toolwire.lint.config import Config
from toolwire.lint.findings import Finding
from toolwire.lint.prefilter import Prefilter

_UNPROMPTED = L.TAINT | L.TOOL | L.TOOLS


class Parsed(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """A parsed module and what the run knows of it.

    `lines` are numbered as the tree numbers them, with or without their line endings;
    `text`, when given, is the source they were split from (saves joining them). `module`
    is the dotted module name (needed for TW303); `known_tools` adds dotted class names
    whose instances count as tools (the classes a migration run is migrating). With `link`
    (a `toolwire check` run), the tools and functions that the modules it imports export
    are known, and its own exports are stored in `link.exports`."""

    tree: ast.Module
    lines: Sequence[str]
    path: str
    config: Config
    module: str | None = None
    known_tools: frozenset[str] = frozenset()
    link: Link | None = None
    text: str | None = None


def analyse(parsed: Parsed, checks: Visitors) -> list[Finding]:
    """Findings for one module, of the `checks` it is handed (node type → visit methods)."""
    tree, lines, config, link = parsed.tree, parsed.lines, parsed.config, parsed.link
    known_tools = parsed.known_tools
    package = is_package(parsed.path)
    imported = {}
    classes = link.classes if link is not None else {}
    if link is not None:
        known_tools |= link.tools
        imported = link.functions
    # An imported function that returns a result unprompted is a marker too (one that only
    # passes on what it is given needs a marker elsewhere to be given anything), and so is
    # an imported class whose instances hold one.
    markers = known_tools | frozenset(classes) if classes else known_tools
    if imported:
        markers |= frozenset(n for n, e in imported.items() if e.returns & _UNPROMPTED)
    text = parsed.text
    if text is None or "\r" in text:
        # The pre-filters count lines by "\n": a bare "\r" ends a line too.
        text = "\n".join(lines)
    if not relevant(text, config, markers):
        if link is not None and link.demanded:
            facts = ModuleFacts(
                tree, config, parsed.module, known_tools, package=package, imported_classes=classes
            )
            flow = Flow(Context(facts, lines, parsed.path), checks, imported)
            flow.module_bindings(tree)
            link.exports = flow.exports(link.demanded)
        return []
    skip = irrelevant_units(tree, text, Prefilter.of(config, markers).markers)
    if skip and Prefilter.of(config, markers).shaped:
        skip = skip - maybe_str_functions(tree)  # handed to a factory elsewhere: TW101
    shallow = skip or frozenset()
    if shallow and link is not None and link.demanded:  # summarised for other modules
        shallow -= {id(n) for n in tree.body if getattr(n, "name", None) in link.demanded}
    facts = ModuleFacts(tree, config, parsed.module, known_tools, shallow, package, classes)
    ctx = Context(facts, lines, parsed.path)
    flow = Flow(ctx, checks, imported)
    flow.module(tree, skip)
    if link is not None:
        link.exports = flow.exports(link.demanded)
    return list(ctx.findings.values())
