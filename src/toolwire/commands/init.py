"""`toolwire init`: write a commented `[tool.toolwire]` table, filled in from the code.

The scan is read-only and uses `ast`: it finds tool methods (methods named like tools,
annotated `-> str` or returning a ToolResult), the message literals that reach a
provider (`{"role": "tool", ...}` and friends) and the functions that build such a
message from a parameter (call-sink candidates). What it finds is printed and written
into the table, so the first `toolwire check` starts from facts, not from a template.

The file is never clobbered: tomlkit adds the table beside the other `[tool.*]` tables
(comments, layout and line endings kept), and an existing table is replaced (only that
table) with `--force`, else the command exits 2. Names found in the code reach the file
only escaped, inside comments: a file name cannot write a key.
"""

from __future__ import annotations

import ast
import os
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from toolwire.config import (
    DEFAULT_HTML_SINKS,
    ConfigError,
    config_from_table,
    presets,
    read_config_text,
)
from toolwire.engine import TOO_DEEP_TO_ANALYSE, decode, deep_walks, parse
from toolwire.files import discover
from toolwire.findings import escape
from toolwire.writes import ChangedOnDisk, create_file, replace_file

LIKELY_TOOL_METHODS = ("execute", "run", "_run", "_arun", "invoke", "__call__")
RESULT_NAMES = frozenset({"ToolResult"})
# Message literals the providers define: discriminator key, value, payload key.
MESSAGE_SHAPES = (
    ("role", "tool", "content"),
    ("type", "tool_result", "content"),
    ("type", "function_call_output", "output"),
)


class InitError(Exception):
    """A reason to stop without writing (exit 2)."""


@dataclass(frozen=True, slots=True, order=True)
class Place:
    path: str
    line: int


@dataclass(frozen=True, slots=True)
class ToolMethod:
    qualname: str  # module.Class.method, or Class.method outside a package
    method: str
    returns: str  # the annotation as written
    place: Place
    bases: tuple[str, ...]  # the class's bases as written (names only)


@dataclass(frozen=True, slots=True)
class LiteralSink:
    spec: str  # key=value:payload
    place: Place


@dataclass(frozen=True, slots=True)
class CallSinkCandidate:
    spec: str  # module.Class.method:param
    place: Place


@dataclass(slots=True)
class Scan:
    tools: list[ToolMethod] = field(default_factory=list)
    literals: list[LiteralSink] = field(default_factory=list)
    call_sinks: list[CallSinkCandidate] = field(default_factory=list)
    classes: dict[str, str] = field(default_factory=dict)  # class name -> dotted name
    unreadable: list[str] = field(default_factory=list)

    def add(self, other: Scan) -> None:
        """Another file's facts: kept only when its whole walk succeeded."""
        self.tools += other.tools
        self.literals += other.literals
        self.call_sinks += other.call_sinks
        for name, dotted in other.classes.items():
            self.classes.setdefault(name, dotted)


# -- scanning ------------------------------------------------------------------------------


def module_of(path: Path, root: Path) -> str | None:
    """The dotted module of `path` below `root` or `root/src`, as config.py resolves sinks."""
    for base in (root / "src", root):
        try:
            parts = list(path.resolve().relative_to(base.resolve()).with_suffix("").parts)
        except ValueError:
            continue
        if parts and parts[-1] == "__init__":
            parts.pop()
        if parts and all(p.isidentifier() for p in parts):
            return ".".join(parts)
    return None


def scan(root: Path) -> Scan:
    found = Scan()
    paths, problems = discover([str(root)])
    found.unreadable += [f"{p.path}:{p.line}: {p.message}" for p in problems]
    for path in sorted(paths):
        if path.suffix != ".py":
            continue
        display = _display(path, root)
        try:
            text, problem = decode(path.read_bytes(), display)
        except OSError as exc:
            found.unreadable.append(f"{display}: cannot read: {exc.strerror}")
            continue
        tree = None
        if text is not None:
            tree, problem = parse(text, display)
        if tree is None:
            if problem is not None:
                found.unreadable.append(f"{display}:{problem.line}: {problem.message}")
            continue
        visitor = _Visitor(Scan(), display, module_of(path, root))
        try:
            with deep_walks():
                visitor.visit(tree)
        except RecursionError:
            found.unreadable.append(f"{display}:1: {TOO_DEEP_TO_ANALYSE}")
            continue
        found.add(visitor.found)
    return found


def _display(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _const_str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _is_str_annotation(node: ast.AST) -> bool:
    text = _const_str(node)
    if text is not None:  # a string annotation, e.g. under `from __future__`-less quoting
        return text.strip() == "str"
    return isinstance(node, ast.Name) and node.id == "str"


class _Visitor(ast.NodeVisitor):
    def __init__(self, found: Scan, path: str, module: str | None) -> None:
        self.found = found
        self.path = path
        self.module = module
        self.scope: list[str] = []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.classes: list[ast.ClassDef] = []

    def _dotted(self, *names: str) -> str:
        prefix = [self.module] if self.module else []
        return ".".join([*prefix, *self.scope, *names])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.found.classes.setdefault(node.name, self._dotted(node.name))
        self.scope.append(node.name)
        self.classes.append(node)
        self.generic_visit(node)
        self.classes.pop()
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        in_class = bool(self.classes) and not self.functions
        if in_class and node.name in LIKELY_TOOL_METHODS and self._tool_like(node):
            cls = self.classes[-1]
            bases = tuple(
                b.id if isinstance(b, ast.Name) else b.attr
                for b in cls.bases
                if isinstance(b, ast.Name | ast.Attribute)
            )
            returns = ast.unparse(node.returns) if node.returns else "(ToolResult returned)"
            place = Place(self.path, node.lineno)
            self.found.tools.append(
                ToolMethod(self._dotted(node.name), node.name, returns, place, bases)
            )
        self.scope.append(node.name)
        self.functions.append(node)
        self.generic_visit(node)
        self.functions.pop()
        self.scope.pop()

    def _tool_like(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        if node.returns is not None:
            return _is_str_annotation(node.returns) or bool(_names_in(node.returns) & RESULT_NAMES)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Return) and sub.value is not None:
                call = sub.value
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
                    owner = call.func.value
                    if isinstance(owner, ast.Name) and owner.id in RESULT_NAMES:
                        return True
        return False

    def visit_Dict(self, node: ast.Dict) -> None:
        fields = {_const_str(k): v for k, v in zip(node.keys, node.values, strict=True) if k}
        for key, value, payload in MESSAGE_SHAPES:
            if _const_str(fields.get(key)) == value and payload in fields:
                place = Place(self.path, node.lineno)
                self.found.literals.append(LiteralSink(f"{key}={value}:{payload}", place))
                self._call_sink(fields[payload], node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        # `cls(role="tool", content=content)`: a function that builds the message itself.
        fields = {k.arg: k.value for k in node.keywords if k.arg}
        for key, value, payload in MESSAGE_SHAPES:
            if _const_str(fields.get(key)) == value and payload in fields:
                self._call_sink(fields[payload], node.lineno)
        self.generic_visit(node)

    def _call_sink(self, payload: ast.expr, line: int) -> None:
        """The enclosing function is a call sink when the payload is one of its parameters."""
        if not self.functions or not isinstance(payload, ast.Name) or self.module is None:
            return
        function = self.functions[-1]
        params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        params += [a.arg for a in function.args.kwonlyargs]
        if payload.id not in params or payload.id in ("self", "cls"):
            return
        spec = f"{'.'.join([self.module, *self.scope])}:{payload.id}"
        self.found.call_sinks.append(CallSinkCandidate(spec, Place(self.path, line)))


# -- the table -----------------------------------------------------------------------------


def _unique(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(values))


def suggested_bases(found: Scan) -> list[str]:
    """Classes in the tree that define a tool method and are a base of another tool class."""
    tool_classes = {t.qualname.rsplit(".", 2)[-2] for t in found.tools}
    used_as_base = {b for t in found.tools for b in t.bases}
    dotted = (found.classes.get(name, "") for name in tool_classes & used_as_base)
    return sorted(name for name in dotted if "." in name)


def suggested_presets(found: Scan) -> list[str]:
    specs = {s.spec for s in found.literals}
    return [name for name, p in presets().items() if specs & set(p.get("wire-sinks", []))]


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


def build_table(found: Scan) -> Table:
    """The `[tool.toolwire]` table: what the scan found, as comments above each key."""
    methods = _unique([t.method for t in found.tools]) or ["execute"]
    bases = suggested_bases(found)
    call_sinks = _unique([s.spec for s in found.call_sinks])
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
            out.comment(f"  {t.qualname} -> {t.returns}  ({t.place.path}:{t.place.line})")
    else:
        out.comment("No tool methods found; `execute` is the default.")
    out.key("tool-methods", methods)
    out.blank()
    out.comment("Only classes deriving these are tools (empty: any class).")
    if bases:
        out.comment("Found: tool classes derive from these classes of the project.")
    out.key("tool-bases", bases)
    out.blank()
    out.comment("Sink presets: provider message shapes found in the code.")
    for literal in found.literals:
        out.comment(f"  {literal.spec}  ({literal.place.path}:{literal.place.line})")
    out.key("presets", suggested_presets(found))
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


def _validate(table: Table, path: Path) -> None:
    """Raises ConfigError unless the table loads as toolwire will load it."""
    config_from_table(tomllib.loads(render_table(table))["tool"]["toolwire"], path)


def _drop_wire_sinks(table: Table) -> None:
    table["wire-sinks"] = tomlkit.array()
    table["wire-sinks"].comment("see the candidates above")


# -- writing -------------------------------------------------------------------------------


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """What the file says, without `[tool.toolwire]`: must not change when init writes."""
    copy = dict(data)
    tool = dict(copy.get("tool", {}))
    tool.pop("toolwire", None)
    if tool:
        copy["tool"] = tool
    else:
        copy.pop("tool", None)
    return copy


def new_text(old: str | None, table: Table, *, force: bool, name: str) -> str:
    """`old` with the table added (or, with `force`, in place of the old one, by tomlkit):
    the user's comments, layout, line endings and other tables are kept."""
    if old is None:
        return render_table(table)
    newline = "\r\n" if "\r\n" in old else "\n"
    if old and not old.endswith(("\n", "\r")):
        old += newline
    try:
        data = tomllib.loads(old.removeprefix("\ufeff"))
        document = tomlkit.parse(old)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise InitError(f"{name} is not valid TOML ({exc}); fix it first") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise InitError(
            str(ConfigError(Path(name), "tool", f"expected a table, got {tool!r}", in_table=False))
        )
    if "toolwire" not in tool:
        # After the last byte, so every byte of the file stays as it was: the table is a
        # whole document of its own (tomlkit's), and the result is checked below.
        text = old + (newline if old.strip() else "") + render_table(table, newline)
    elif not force:
        raise InitError(
            f"{name} already has a [tool.toolwire] table; edit it, or run `toolwire init "
            "--force` to replace that table (and only it)"
        )
    else:
        # The table parsed from its own text keeps `newline` in its trivia.
        fresh = tomlkit.parse(render_table(table, newline))["tool"]["toolwire"]
        _replace(document, fresh, name)
        text = document.as_string()
    try:
        written = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError:
        written = {}
    if (
        _plain(written) != _plain(data)
        or written.get("tool", {}).get("toolwire")
        != (tomllib.loads(render_table(table))["tool"]["toolwire"])
    ):
        raise InitError(f"{name}: could not add the table without touching the rest")
    return text


def _replace(document: TOMLDocument, fresh: Table, name: str) -> None:
    tool = document["tool"]
    old = tool["toolwire"]
    if not isinstance(old, Table) or old.is_super_table():
        raise InitError(
            f"{name}: [tool.toolwire] is not written as its own table (inline or dotted keys); "
            "--force only replaces a `[tool.toolwire]` section, edit this one by hand"
        )
    # tomlkit files the comments and blank lines above the next header under this table:
    # they belong to the next one, so they move to the end of the new table (in place of
    # the blank line tomlkit adds there). At the end of the file they are this table's.
    body = old.value.body
    tail = len(body)
    while tail and body[tail - 1][0] is None:
        tail -= 1
    last = document.as_string().rstrip().endswith(old.as_string().rstrip())
    moved = [] if last else body[tail:]
    tool["toolwire"] = fresh
    if moved and fresh.value.body and isinstance(fresh.value.body[-1][1], Whitespace):
        fresh.value.body.pop()
    fresh.value.body.extend(moved)


def _report(found: Scan, echo: Callable[[str], None]) -> None:
    echo(f"tool methods ({len(found.tools)}):")
    for t in found.tools:
        echo(f"  {escape(t.place.path)}:{t.place.line}: {t.qualname} -> {escape(t.returns)}")
    echo(f"message-literal sinks ({len(found.literals)}):")
    for s in found.literals:
        echo(f"  {escape(s.place.path)}:{s.place.line}: {escape(s.spec)}")
    echo(f"call-sink candidates ({len(found.call_sinks)}):")
    for c in found.call_sinks:
        echo(f"  {escape(c.place.path)}:{c.place.line}: {escape(c.spec)}")
    for problem in found.unreadable:
        echo(f"  skipped {escape(problem)}")


@click.command("init")
@click.argument(
    "directory",
    default=".",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
)
@click.option("--force", is_flag=True, help="Replace an existing [tool.toolwire] table.")
@click.option("--dry-run", is_flag=True, help="Print the table instead of writing it.")
def command(directory: Path, force: bool, dry_run: bool) -> None:
    """Write a [tool.toolwire] table into pyproject.toml, from a scan of the code.

    DIRECTORY (default: the current one) is scanned for tool methods and provider
    message literals, and what is found goes into the table. The file is created when
    missing, appended to otherwise; an existing table is kept unless --force.
    Exit codes: 0 written, 2 errors (an existing table without --force, bad TOML).
    """
    target = directory / "pyproject.toml"
    found = scan(directory)
    table = build_table(found)
    try:
        _validate(table, target)
    except ConfigError as exc:
        if exc.key != "wire-sinks":
            raise
        # Keep the facts, drop the sinks that do not resolve: the file must load.
        click.echo(f"toolwire: note: wire-sinks left empty: {exc}", err=True)
        _drop_wire_sinks(table)
    _report(found, click.echo)
    if dry_run:
        click.echo("")
        click.echo(render_table(table), nl=False)
        return
    try:
        # Not read_text: newline translation would change the user's line endings.
        old = read_config_text(target) if os.path.lexists(target) else None
        text = new_text(old, table, force=force, name=str(target))
    except (InitError, ConfigError) as exc:
        click.echo(f"toolwire: {exc}", err=True)
        raise SystemExit(2) from None
    try:
        if old is None:
            create_file(target, text.encode("utf-8"))
        else:
            replace_file(target, text.encode("utf-8"), expected=old.encode("utf-8"))
    except (ChangedOnDisk, FileExistsError):
        name = escape(str(target))
        click.echo(f"toolwire: {name} changed during the run; run init again", err=True)
        raise SystemExit(2) from None
    except OSError as exc:
        click.echo(f"toolwire: cannot write {escape(str(target))}: {exc.strerror}", err=True)
        raise SystemExit(2) from None
    verb = "created" if old is None else ("replaced the table in" if force else "appended to")
    click.echo(f"toolwire: {verb} {target}")
