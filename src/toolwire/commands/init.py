"""`toolwire init`: write a commented `[tool.toolwire]` table, filled in from the code.

The scan is read-only and uses `ast`: it finds tool methods (methods named like tools,
annotated `-> str` or returning a ToolResult), the message literals that reach a
provider (`{"role": "tool", ...}` and friends) and the functions that build such a
message from a parameter (call-sink candidates). What it finds is printed and written
into the table, so the first `toolwire check` starts from facts, not from a template.

The file is never clobbered: the table is appended after the existing bytes, and an
existing table is replaced (only that table) with `--force`, else the command exits 2.
"""

from __future__ import annotations

import ast
import os
import re
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from toolwire.config import DEFAULT_HTML_SINKS, ConfigError, config_from_table, presets
from toolwire.engine import decode, parse
from toolwire.files import discover

LIKELY_TOOL_METHODS = ("execute", "run", "_run", "_arun", "invoke", "__call__")
RESULT_NAMES = frozenset({"ToolResult"})
# Message literals the providers define: discriminator key, value, payload key.
MESSAGE_SHAPES = (
    ("role", "tool", "content"),
    ("type", "tool_result", "content"),
    ("type", "function_call_output", "output"),
)
_HEADER = re.compile(r'^[ \t]*\[[ \t]*"?tool"?[ \t]*\.[ \t]*"?toolwire"?[ \t]*\][ \t]*(#.*)?$')
_ANY_HEADER = re.compile(r"^[ \t]*\[\[?[^\[\]\n]+\]\]?[ \t]*(#.*)?$")


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
        _Visitor(found, display, module_of(path, root)).visit(tree)
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


def _toml_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(_toml_str(v) for v in values) + "]"


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


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


def render_table(found: Scan) -> str:
    methods = _unique([t.method for t in found.tools]) or ["execute"]
    bases = suggested_bases(found)
    preset_names = suggested_presets(found)
    call_sinks = _unique([s.spec for s in found.call_sinks])
    lines = [
        "[tool.toolwire]",
        "# Written by `toolwire init` from a scan of this project; review every line.",
        "# Every key is described in toolwire's docs/configuration.md.",
        "",
        "# The result type migrated tools return.",
        'result-class = "toolwire.ToolResult"',
        "",
        "# Methods that are tools (the codemod and TW101/TW303).",
    ]
    if found.tools:
        lines.append("# Found:")
        lines += [
            f"#   {t.qualname} -> {t.returns}  ({t.place.path}:{t.place.line})" for t in found.tools
        ]
    else:
        lines.append("# No tool methods found; `execute` is the default.")
    lines.append(f"tool-methods = {_toml_list(methods)}")
    lines += ["", "# Only classes deriving these are tools (empty: any class)."]
    if bases:
        lines.append("# Found: tool classes derive from these classes of the project.")
    lines.append(f"tool-bases = {_toml_list(bases)}")
    lines += ["", "# Sink presets: provider message shapes found in the code."]
    for literal in found.literals:
        lines.append(f"#   {literal.spec}  ({literal.place.path}:{literal.place.line})")
    lines.append(f"presets = {_toml_list(preset_names)}")
    lines += [
        "",
        "# Call sinks: 'pkg.mod.Class.method:param' (a position or a parameter name).",
    ]
    if call_sinks:
        lines.append("# Found: these build a tool message from the parameter named after ':'.")
        lines += [f"#   {s.spec}  ({s.place.path}:{s.place.line})" for s in found.call_sinks]
    else:
        lines.append("# None found: add the function that turns a tool's text into a message.")
    lines.append(f"wire-sinks = {_toml_list(call_sinks)}")
    lines += [
        "",
        "# Resumable state that must never hold artifacts (TW401), e.g. 'myapp.state.Suspended'.",
        "# state-sinks = []",
        "# The one method every tool call goes through (TW303), e.g. 'myapp.loop.Loop.invoke'.",
        '# seam = ""',
        "# Raw-HTML sinks (TW402); these are the defaults.",
        f"# html-sinks = {_toml_list(DEFAULT_HTML_SINKS)}",
        "# Codes or prefixes to report or leave out (empty select: all).",
        "# select = []",
        "# ignore = []",
    ]
    return "\n".join(lines) + "\n"


# -- writing -------------------------------------------------------------------------------


def table_span(text: str) -> tuple[int, int] | None:
    """Character offsets of the `[tool.toolwire]` table (header to the next table), if any."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line.rstrip("\r\n"))), None)
    if start is None:
        return None
    # A line that looks like a header may sit inside a multi-line value: take the first
    # candidate end where the span alone is valid TOML holding only this table.
    for end in range(start + 1, len(lines) + 1):
        at_end = end == len(lines)
        if not at_end:
            line = lines[end].rstrip("\r\n")
            if not _ANY_HEADER.match(line) or _HEADER.match(line) or _is_subtable(line):
                continue
        chunk = text[offsets[start] : offsets[end]]
        try:
            data = tomllib.loads(chunk)
        except tomllib.TOMLDecodeError:
            continue
        if set(data) == {"tool"} and set(data["tool"]) == {"toolwire"}:
            # Blank and comment lines just above the next header belong to that table.
            while end - 1 > start and (not lines[end - 1].strip() or _comment(lines[end - 1])):
                end -= 1
            return offsets[start], offsets[end]
    return None


def _comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _is_subtable(line: str) -> bool:
    return bool(re.match(r'^[ \t]*\[[ \t]*"?tool"?[ \t]*\.[ \t]*"?toolwire"?[ \t]*\.', line))


def _without_toolwire(data: dict[str, Any]) -> dict[str, Any]:
    copy = dict(data)
    tool = dict(copy.get("tool", {}))
    tool.pop("toolwire", None)
    if tool:
        copy["tool"] = tool
    else:
        copy.pop("tool", None)
    return copy


def new_text(old: str | None, table: str, *, force: bool, name: str) -> str:
    if old is None:
        return table
    newline = "\r\n" if "\r\n" in old else "\n"
    table = table.replace("\n", newline)
    try:
        data = tomllib.loads(old.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise InitError(f"{name} is not valid TOML ({exc}); fix it first") from None
    if "toolwire" not in data.get("tool", {}):
        separator = "" if not old or old.endswith(("\n", "\r")) else newline
        blank = newline if old.strip() else ""
        return old + separator + blank + table
    if not force:
        raise InitError(
            f"{name} already has a [tool.toolwire] table; edit it, or run `toolwire init "
            "--force` to replace that table (and only it)"
        )
    span = table_span(old)
    if span is None:
        raise InitError(
            f"{name}: [tool.toolwire] is not written as its own table (inline or dotted keys); "
            "--force only replaces a `[tool.toolwire]` section, edit this one by hand"
        )
    start, end = span
    rest = old[end:].lstrip("\r\n")
    text = old[:start] + table + (newline + rest if rest else "")
    if _without_toolwire(tomllib.loads(text.removeprefix("\ufeff"))) != _without_toolwire(data):
        raise InitError(f"{name}: could not replace the table without touching the rest")
    return text


def write_atomic(path: Path, text: str) -> None:
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _validate(table: str, path: Path) -> None:
    """Raises ConfigError unless the table loads as toolwire will load it."""
    config_from_table(tomllib.loads(table)["tool"]["toolwire"], path)


def _report(found: Scan, echo: Callable[[str], None]) -> None:
    echo(f"tool methods ({len(found.tools)}):")
    for t in found.tools:
        echo(f"  {t.place.path}:{t.place.line}: {t.qualname} -> {t.returns}")
    echo(f"message-literal sinks ({len(found.literals)}):")
    for s in found.literals:
        echo(f"  {s.place.path}:{s.place.line}: {s.spec}")
    echo(f"call-sink candidates ({len(found.call_sinks)}):")
    for c in found.call_sinks:
        echo(f"  {c.place.path}:{c.place.line}: {c.spec}")
    for problem in found.unreadable:
        echo(f"  skipped {problem}")


def _iter_sink_lines(table: str) -> Iterator[str]:
    yield from (line for line in table.splitlines() if line.startswith("wire-sinks = "))


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
    table = render_table(found)
    try:
        _validate(table, target)
    except ConfigError as exc:
        # Keep the facts, drop the sinks that do not resolve: the file must load.
        click.echo(f"toolwire: note: wire-sinks left empty: {exc}", err=True)
        for line in _iter_sink_lines(table):
            table = table.replace(line, "wire-sinks = []  # see the candidates above")
    _report(found, click.echo)
    if dry_run:
        click.echo("")
        click.echo(table, nl=False)
        return
    try:
        # Bytes, not read_text: newline translation would change the user's line endings.
        old = target.read_bytes().decode("utf-8") if target.exists() else None
    except (OSError, UnicodeDecodeError) as exc:
        click.echo(f"toolwire: {target}: cannot read: {exc}", err=True)
        raise SystemExit(2) from None
    try:
        text = new_text(old, table, force=force, name=str(target))
    except InitError as exc:
        click.echo(f"toolwire: {exc}", err=True)
        raise SystemExit(2) from None
    write_atomic(target, text)
    verb = "created" if old is None else ("replaced the table in" if force else "appended to")
    click.echo(f"toolwire: {verb} {target}")
