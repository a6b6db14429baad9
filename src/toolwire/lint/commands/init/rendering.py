"""The `[tool.toolwire]` table `toolwire init` writes: what the scan found, as comments
above each key (every comment escaped: no name found in the code can end one)."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

import tomlkit
from tomlkit.items import Table

from toolwire.lint.commands.init.scanning import (
    Scan,
    ToolMethod,
    detect_frameworks,
    framework_tools,
)
from toolwire.lint.config import DEFAULT_HTML_SINKS, config_from_table, presets
from toolwire.lint.findings import escape

__all__ = ["build_table", "drop_wire_sinks", "render_table", "validate"]


def _unique(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(values))


def suggested_bases(found: Scan, tools: Sequence[ToolMethod]) -> list[str]:
    """Classes in the tree that define a tool method and are a base of another tool class."""
    tool_classes = {t.qualname.rsplit(".", 2)[-2] for t in tools}
    used_as_base = {b for t in tools for b in t.bases}
    dotted = (found.classes.get(name, "") for name in tool_classes & used_as_base)
    return sorted(name for name in dotted if "." in name)


def suggested_presets(found: Scan, frameworks: Sequence[str]) -> list[str]:
    """The message presets whose shapes the code builds, then the frameworks it imports."""
    specs = {s.spec for s in found.literals}
    messages = [n for n, p in presets().items() if specs & set(p.get("wire-sinks", []))]
    return _unique([*messages, *frameworks])


class _Table:
    """A tomlkit table written top to bottom; every comment is escaped (no name can end it)."""

    def __init__(self) -> None:
        self.table = tomlkit.table()

    def comment(self, text: str) -> None:
        self.table.add(tomlkit.comment(escape(text)))

    def key(self, name: str, value: str | list[str]) -> None:
        self.table.add(name, value)

    def blank(self) -> None:
        self.table.add(tomlkit.nl())


def _tool_methods(
    generic: Sequence[ToolMethod], frameworks: bool, bases: bool
) -> tuple[list[str], list[ToolMethod]]:
    """`tool-methods`, and the candidates left out of it."""
    # Beside a framework, a generic name and `-> str` do not make a tool (an API wrapper's
    # `run`): without a tool base of the project's own, only toolwire's `execute` is named.
    guessed = frameworks and not bases
    named = [t for t in generic if not guessed or t.method == "execute"]
    methods = _unique([t.method for t in named]) or ([] if frameworks else ["execute"])
    return methods, [t for t in generic if t not in named]


def build_table(found: Scan) -> Table:
    """The `[tool.toolwire]` table: what the scan found, as comments above each key."""
    frameworks = detect_frameworks(found)
    covered = framework_tools(found, list(frameworks))
    # A framework preset finds its own tools: they are listed, not named in `tool-methods`.
    generic = [t for t in found.tools if t not in covered]
    bases = suggested_bases(found, generic)
    methods, unnamed = _tool_methods(generic, bool(frameworks), bool(bases))
    call_sinks = _unique([s.spec for s in found.call_sinks])
    egress_sinks = _unique([s.spec for s in found.egress_sinks])
    out = _Table()
    out.comment("Written by `toolwire init` from a scan of this project; review every line.")
    out.comment("Every key is described in toolwire's docs/configuration.md.")
    out.blank()
    out.comment("The result type migrated tools return.")
    out.key("result-class", "toolwire.ToolResult")
    out.blank()
    out.comment("Methods that are tools (the codemod and TW101/TW303).")
    if found.tools:
        out.comment("Found:")
        for t in found.tools:
            by = "  [the framework preset finds it]" if t in covered else ""
            by = "  [a generic name beside a framework: not named]" if t in unnamed else by
            out.comment(f"  {t.qualname} -> {t.returns}  ({t.place.path}:{t.place.line}){by}")
    elif frameworks:
        out.comment("None outside the frameworks' own tools, which their presets find.")
    else:
        out.comment("No tool methods found; `execute` is the default.")
    out.key("tool-methods", methods)
    out.blank()
    out.comment("Only classes deriving these are tools (empty: any class).")
    if bases:
        out.comment("Found: tool classes derive from these classes of the project.")
    out.key("tool-bases", bases)
    out.blank()
    out.comment("Presets: provider message shapes found in the code, and the tool frameworks")
    out.comment("it imports (their tools, found by base class and decorator, need no names).")
    for literal in found.literals:
        out.comment(f"  {literal.spec}  ({literal.place.path}:{literal.place.line})")
    for name, evidence in frameworks.items():
        first = evidence[0]
        more = f" and {len(evidence) - 1} more" if len(evidence) > 1 else ""
        where = f"{first.place.path}:{first.place.line}"
        out.comment(f"  {name}: imports {first.module}  ({where}){more}")
    out.key("presets", suggested_presets(found, list(frameworks)))
    out.blank()
    out.comment("Call sinks: 'pkg.mod.Class.method:param' (a position or a parameter name).")
    if call_sinks:
        out.comment("Found: these build a tool message from the parameter named after ':'.")
        for s in found.call_sinks:
            out.comment(f"  {s.spec}  ({s.place.path}:{s.place.line})")
    else:
        out.comment("None found: add the function that turns a tool's text into a message.")
    out.key("wire-sinks", call_sinks)
    out.blank()
    out.comment("Egress sinks: messages the model reads that are not tool output (a user or")
    out.comment("system message): any text, never a whole result or an artifact (TW201, TW302).")
    if egress_sinks:
        out.comment("Found: these build such a message from the parameter named after ':'.")
        for s in found.egress_sinks:
            out.comment(f"  {s.spec}  ({s.place.path}:{s.place.line})")
    out.key("egress-sinks", egress_sinks)
    out.blank()
    for line in (
        "Resumable state that must never hold artifacts (TW401), e.g. 'myapp.state.Suspended'.",
        "state-sinks = []",
        "The one method every tool call goes through (TW303), e.g. 'myapp.loop.Loop.invoke'.",
        'seam = ""',
        "Raw-HTML sinks (TW402); these are the defaults.",
        f"html-sinks = {tomlkit.item(list(DEFAULT_HTML_SINKS)).as_string()}",
        "Codes or prefixes to report or leave out (empty select: all).",
        "select = []",
        "ignore = []",
    ):
        out.comment(line)
    return out.table


def render_table(table: Table, newline: str = "\n") -> str:
    """The table as a document of its own, `[tool.toolwire]` header first."""
    document = tomlkit.document()
    document.add("tool", tomlkit.table(is_super_table=True))
    document["tool"].append("toolwire", table)
    return document.as_string().replace("\n", newline)


def validate(table: Table, path: Path) -> None:
    """Raises ConfigError unless the table loads as toolwire will load it."""
    config_from_table(tomllib.loads(render_table(table))["tool"]["toolwire"], path)


def drop_wire_sinks(table: Table) -> None:
    table["wire-sinks"] = tomlkit.array()
    table["wire-sinks"].comment("see the candidates above")
