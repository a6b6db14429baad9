"""The read-only scan behind `toolwire init`: tool methods, message literals, call sinks,
and the frameworks the code imports.

It uses `ast` and never imports the user's code. A framework counts only by an import
statement of one of its modules (`from langchain_core.tools import BaseTool`), never by
a name in a string or a comment, and never when the tree itself holds a module of that
name (a project's own `agents` package is not the Agents SDK).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from toolwire.lint.config import Config, presets
from toolwire.lint.engine import TOO_DEEP_TO_ANALYSE, decode, deep_walks, module_name, parse
from toolwire.lint.files import discover
from toolwire.lint.model import frameworks, preset

__all__ = [
    "CallSinkCandidate",
    "FrameworkImport",
    "LiteralSink",
    "Place",
    "Scan",
    "ToolMethod",
    "detect_frameworks",
    "framework_roots",
    "framework_tools",
    "scan",
]

LIKELY_TOOL_METHODS = ("execute", "run", "_run", "_arun", "invoke", "__call__")
RESULT_NAMES = frozenset({"ToolResult"})
# Message literals the providers define: discriminator key, value, payload key.
MESSAGE_SHAPES = (
    ("role", "tool", "content"),
    ("type", "tool_result", "content"),
    ("type", "function_call_output", "output"),
)
# Messages the model reads that are not tool output: any text, never a result or an artifact.
EGRESS_SHAPES = (
    ("role", "user", "content"),
    ("role", "system", "content"),
    ("role", "developer", "content"),
)


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
    resolved: tuple[str, ...] = ()  # the same bases, dotted through the imports where known


@dataclass(frozen=True, slots=True)
class LiteralSink:
    spec: str  # key=value:payload
    place: Place


@dataclass(frozen=True, slots=True)
class CallSinkCandidate:
    spec: str  # module.Class.method:param
    place: Place


@dataclass(frozen=True, slots=True)
class FrameworkImport:
    module: str  # the module imported, e.g. `langchain_core.tools`
    place: Place
    names: tuple[str, ...] = ()  # `from google import genai` imports `google.genai` too


@dataclass(slots=True)
class Scan:
    tools: list[ToolMethod] = field(default_factory=list)
    literals: list[LiteralSink] = field(default_factory=list)
    call_sinks: list[CallSinkCandidate] = field(default_factory=list)
    egress_sinks: list[CallSinkCandidate] = field(default_factory=list)
    classes: dict[str, str] = field(default_factory=dict)  # class name -> dotted name
    # dotted class name -> its bases, dotted through the imports where known
    class_bases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    imports: list[FrameworkImport] = field(default_factory=list)  # absolute imports only
    modules: set[str] = field(default_factory=set)  # the tree's own top-level modules
    unreadable: list[str] = field(default_factory=list)

    def add(self, other: Scan) -> None:
        """Another file's facts: kept only when its whole walk succeeded."""
        self.tools += other.tools
        self.literals += other.literals
        self.call_sinks += other.call_sinks
        self.egress_sinks += other.egress_sinks
        self.imports += other.imports
        self.class_bases.update(other.class_bases)
        for name, dotted in other.classes.items():
            self.classes.setdefault(name, dotted)


def framework_roots() -> dict[str, frozenset[str]]:
    """Preset name -> the top-level modules of its framework: those the preset declares
    (`modules`), and those its tool shapes come from.

    `langchain_core.tools.BaseTool` and `langchain.tools.tool` make `langchain` the
    preset of `langchain_core` and `langchain`; no framework is named here.
    """
    roots: dict[str, frozenset[str]] = {}
    for framework in frameworks():
        found = set(framework.modules)
        for kind in ("class-tools", "function-tools"):
            for table in preset(framework.preset).get(kind, []):
                for key in ("bases", "decorators", "instances", "factories"):
                    found.update(str(v).partition(".")[0] for v in table.get(key, []))
        roots[framework.preset] = frozenset(found)
    return roots


def scan(root: Path) -> Scan:
    found = Scan()
    paths, problems = discover([str(root)])
    found.unreadable += [f"{p.path}:{p.line}: {p.message}" for p in problems]
    # Module names as toolwire resolves them for a config file in `root`.
    config = Config(source=root / "pyproject.toml")
    for path in sorted(paths):
        if path.suffix != ".py":
            continue
        module = module_name(path, config)
        if module is not None:
            found.modules.add(module.partition(".")[0])
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
        visitor = _Visitor(Scan(), display, module)
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
        self.aliases: dict[str, str] = {}  # a name bound by an import -> what it names

    def _dotted(self, *names: str) -> str:
        prefix = [self.module] if self.module else []
        return ".".join([*prefix, *self.scope, *names])

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.imports.append(FrameworkImport(alias.name, Place(self.path, node.lineno)))
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                head = alias.name.partition(".")[0]
                self.aliases[head] = head

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return  # relative: the project's own code
        names = tuple(a.name for a in node.names if a.name != "*")
        self.found.imports.append(
            FrameworkImport(node.module, Place(self.path, node.lineno), names)
        )
        for alias in node.names:
            if alias.name != "*":
                self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _resolve(self, node: ast.expr) -> str | None:
        """`BaseTool` or `tools.BaseTool` through this module's imports; else as written."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.aliases.get(node.id)
        if head is None:
            return ".".join([node.id, *reversed(parts)])
        return ".".join([head, *reversed(parts)])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        dotted = self._dotted(node.name)
        self.found.classes.setdefault(node.name, dotted)
        self.found.class_bases[dotted] = tuple(
            r for r in (self._resolve(b) for b in node.bases) if r is not None
        )
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
            resolved = self.found.class_bases.get(self._dotted(), ())
            self.found.tools.append(
                ToolMethod(self._dotted(node.name), node.name, returns, place, bases, resolved)
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
        self._egress_sink(fields, node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        # `cls(role="tool", content=content)`: a function that builds the message itself.
        fields = {k.arg: k.value for k in node.keywords if k.arg}
        for key, value, payload in MESSAGE_SHAPES:
            if _const_str(fields.get(key)) == value and payload in fields:
                self._call_sink(fields[payload], node.lineno)
        self._egress_sink(fields, node.lineno)
        self.generic_visit(node)

    def _egress_sink(
        self, fields: dict[str, ast.expr] | dict[str | None, ast.expr], line: int
    ) -> None:
        for key, value, payload in EGRESS_SHAPES:
            if _const_str(fields.get(key)) == value and payload in fields:
                self._call_sink(fields[payload], line, self.found.egress_sinks)

    def _call_sink(
        self, payload: ast.expr, line: int, into: list[CallSinkCandidate] | None = None
    ) -> None:
        """The enclosing function is a call sink when the payload is one of its parameters."""
        if not self.functions or not isinstance(payload, ast.Name) or self.module is None:
            return
        function = self.functions[-1]
        params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        params += [a.arg for a in function.args.kwonlyargs]
        if payload.id not in params or payload.id in ("self", "cls"):
            return
        spec = f"{'.'.join([self.module, *self.scope])}:{payload.id}"
        found = self.found.call_sinks if into is None else into
        found.append(CallSinkCandidate(spec, Place(self.path, line)))


def detect_frameworks(found: Scan) -> dict[str, list[FrameworkImport]]:
    """Framework preset -> the import statements that name one of its modules.

    A module the tree itself provides (its own `agents` or `mcp` package) is not the
    framework.
    """
    detected: dict[str, list[FrameworkImport]] = {}
    for name, roots in framework_roots().items():
        evidence = [
            i
            for i in found.imports
            if i.module.partition(".")[0] not in found.modules and _under(i, roots)
        ]
        if evidence:
            detected[name] = sorted(evidence, key=lambda i: i.place)
    return detected


def _under(found: FrameworkImport, roots: frozenset[str]) -> bool:
    """The import names one of `roots` (a framework's modules, `google.genai`) or a module
    inside one."""
    for module in (found.module, *(f"{found.module}.{n}" for n in found.names)):
        if any(module == root or module.startswith(root + ".") for root in roots):
            return True
    return False


def framework_tools(found: Scan, frameworks: list[str]) -> set[ToolMethod]:
    """The tool methods a framework preset finds by itself: a method its class-tools name,
    on a class deriving one of their bases (through the tree's own classes too)."""
    known = presets()
    shapes = [
        (frozenset(map(str, t.get("bases", []))), frozenset(map(str, t.get("methods", []))))
        for name in frameworks
        for t in known.get(name, {}).get("class-tools", [])
    ]
    covered: set[ToolMethod] = set()
    for tool in found.tools:
        for bases, methods in shapes:
            if tool.method in methods and _derives(found, tool.resolved, bases, set()):
                covered.add(tool)
    return covered


def _derives(found: Scan, resolved: tuple[str, ...], bases: frozenset[str], seen: set[str]) -> bool:
    for base in resolved:
        if base in bases:
            return True
        # A class of the tree: by its dotted name, or by its bare name in its own module.
        dotted = base if base in found.class_bases else found.classes.get(base)
        if dotted is not None and dotted not in seen:
            seen.add(dotted)
            if _derives(found, found.class_bases.get(dotted, ()), bases, seen):
                return True
    return False
