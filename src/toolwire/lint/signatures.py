"""The parameters of a callable named by a dotted name, read from its source, never imported.

A sink given by parameter name (`pkg.Message:content`) needs the parameter's position at a
call site. The dotted name is the one users import (`langchain_core.messages.HumanMessage`),
which is often a re-export: `from .human import HumanMessage`, or a lazy
`_dynamic_imports = {"HumanMessage": "human"}` table read by a module `__getattr__`. Both
are followed, and the definition's own dotted name is returned too, so that the syntax
layer matches the name either way it is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import NamedTuple

_MAX_HOPS = 8  # re-exports followed before giving up (a cycle ends here)
_MAX_ANCESTORS = 32  # a class hierarchy deeper than this is not followed further
_READ: dict[Path, None] = {}  # every source parsed, in order


class Signature(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """How a callable takes its arguments, read from its source."""

    positional: tuple[str, ...]  # by position at the call site (no self/cls)
    keywords: tuple[str, ...]  # keyword-only: pydantic fields, `*, name`, kw_only dataclasses
    definition: str  # the dotted name of the definition

    def position(self, name: str) -> int | None:
        return self.positional.index(name) if name in self.positional else None

    def accepts(self, name: str) -> bool:
        return name in self.positional or name in self.keywords


def find_signature(target: str, roots: Sequence[Path]) -> Signature | None:
    return _signature(target, tuple(roots), 0)


@cache
def _signature(target: str, roots: tuple[Path, ...], hops: int) -> Signature | None:
    if hops > _MAX_HOPS:
        return None
    parts = target.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module, names = parts[:split], parts[split:]
        source = _find_module(module, roots)
        if source is None:
            continue
        tree = _parse(source)
        if tree is None:
            return None
        package = ".".join(module) if source.name == "__init__.py" else ".".join(module[:-1])
        found = _in_body(tree.body, names, ".".join(module))
        if found is not None:
            return found
        moved = _reexport(tree, names[0], package)
        if moved is not None:
            return _signature(".".join([moved, *names[1:]]), roots, hops + 1)
        return None
    return None


def find_bases(target: str, roots: Sequence[Path]) -> tuple[str, ...]:
    """The definition names of every ancestor of the class `target`, read from the source
    (`smolagents.agents.MultiStepAgent` for `smolagents.CodeAgent`); () if not found."""
    out: dict[str, None] = {}
    _ancestors(target, tuple(roots), out)
    return tuple(out)


def _ancestors(target: str, roots: tuple[Path, ...], out: dict[str, None]) -> None:
    found = _class(target, roots, 0)
    if found is None:
        return
    tree, module, package, node = found
    for base in node.bases:
        dotted = _base_name(base, tree, module, package)
        if dotted is not None and dotted not in out and len(out) < _MAX_ANCESTORS:
            out[dotted] = None
            _ancestors(dotted, roots, out)


@cache
def _class(
    target: str, roots: tuple[Path, ...], hops: int
) -> tuple[ast.Module, str, str, ast.ClassDef] | None:
    """The module-level class `target` (through re-exports): its module's tree, its module's
    and package's dotted names, and its node."""
    if hops > _MAX_HOPS:
        return None
    module, _, name = target.rpartition(".")
    source = _find_module(module.split("."), roots) if module else None
    if source is None:
        return None
    tree = _parse(source)
    if tree is None:
        return None
    package = module if source.name == "__init__.py" else module.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return tree, module, package, node
    moved = _reexport(tree, name, package)
    if moved is not None:
        return _class(moved, roots, hops + 1)
    for node in tree.body:  # `from .agents import *` (smolagents' `__init__`)
        if isinstance(node, ast.ImportFrom) and [a.name for a in node.names] == ["*"]:
            start = _absolute(node, package)
            found = _class(f"{start}.{name}", roots, hops + 1) if start else None
            if found is not None:
                return found
    return None


def _base_name(base: ast.expr, tree: ast.Module, module: str, package: str) -> str | None:
    """The dotted name a base class expression refers to in its module (`Generic[T]`'s
    subscript is dropped); None for what is not a plain or dotted name."""
    if isinstance(base, ast.Subscript):
        base = base.value
    parts: list[str] = []
    while isinstance(base, ast.Attribute):
        parts.insert(0, base.attr)
        base = base.value
    if not isinstance(base, ast.Name):
        return None
    head = base.id
    if any(isinstance(n, ast.ClassDef) and n.name == head for n in tree.body):
        return ".".join([module, head, *parts])
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == head:
                    start = _absolute(node, package)
                    return ".".join([start, alias.name, *parts]) if start else None
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname == head:
                    return ".".join([alias.name, *parts])
                if alias.asname is None and alias.name.partition(".")[0] == head:
                    return ".".join([head, *parts])
    return None


def sources_read() -> tuple[Path, ...]:
    """Every module source read so far: what the configs loaded in this process depend on."""
    return tuple(_READ)


@cache
def _parse(source: Path) -> ast.Module | None:
    _READ[source] = None
    try:
        return ast.parse(source.read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None


def _find_module(module: Sequence[str], roots: Sequence[Path]) -> Path | None:
    for root in roots:
        base = root.joinpath(*module)
        for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyi")):
            if candidate.is_file():
                return candidate
    return None


def _reexport(tree: ast.Module, name: str, package: str) -> str | None:
    """Where `name` comes from when the module imports it (`from .human import X`, also
    under `if TYPE_CHECKING:`) or lists it in a lazy `{name: submodule}` table."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = _absolute(node, package)
                    return f"{base}.{alias.name}" if base else None
        elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == name
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and value.value.isidentifier()
                ):
                    return f"{package}.{value.value}.{name}"
    return None


def _absolute(node: ast.ImportFrom, package: str) -> str | None:
    if not node.level:
        return node.module
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _in_body(body: Sequence[ast.stmt], names: Sequence[str], prefix: str) -> Signature | None:
    for node in body:
        if isinstance(node, ast.ClassDef) and node.name == names[0]:
            here = f"{prefix}.{node.name}"
            if len(names) > 1:
                return _in_body(node.body, names[1:], here)
            init = _in_body(node.body, ["__init__"], here)
            if init is not None:
                return Signature(init.positional, init.keywords, here)
            return _fields(node, here)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == names[0]:
            if len(names) != 1:
                return None
            args = [*node.args.posonlyargs, *node.args.args]
            decorators = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
            is_method = node.name == "__init__" or "staticmethod" not in decorators
            if is_method and args and args[0].arg in ("self", "cls"):
                args = args[1:]
            keywords = tuple(a.arg for a in node.args.kwonlyargs)
            return Signature(tuple(a.arg for a in args), keywords, f"{prefix}.{node.name}")
    return None


def _fields(node: ast.ClassDef, dotted: str) -> Signature:
    """A class without `__init__`: a dataclass or NamedTuple takes its fields by position
    (up to a `KW_ONLY` marker); any other (pydantic, attrs-like) takes them by keyword."""
    fields = [
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and not _is_classvar(s.annotation)
    ]
    marker = next(
        (
            s.target.id
            for s in node.body
            if isinstance(s, ast.AnnAssign)
            and isinstance(s.target, ast.Name)
            and ast.unparse(s.annotation).rpartition(".")[2] == "KW_ONLY"
        ),
        None,
    )
    dataclass_call = next((d for d in node.decorator_list if "dataclass" in ast.unparse(d)), None)
    named_tuple = any(ast.unparse(b).rpartition(".")[2] == "NamedTuple" for b in node.bases)
    if dataclass_call is None and not named_tuple:
        return Signature((), tuple(fields), dotted)
    kw_only = isinstance(dataclass_call, ast.Call) and any(
        k.arg == "kw_only" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in dataclass_call.keywords
    )
    if kw_only:
        return Signature((), tuple(f for f in fields if f != marker), dotted)
    if marker is not None:
        cut = fields.index(marker)
        return Signature(tuple(fields[:cut]), tuple(fields[cut + 1 :]), dotted)
    return Signature(tuple(fields), (), dotted)


def _is_classvar(annotation: ast.expr) -> bool:
    return "ClassVar" in ast.unparse(annotation)
