"""What a module's top-level names are bound to, read from its statements only.

Name resolution works on statements only (module level, `if TYPE_CHECKING:` blocks and
class bodies), so planning a migration never walks a module's expressions.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_absolute_module_from_package_for_import, get_full_name_for_node


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None (libcst's helper would name `a().b`
    and `a[0]` too, which are not references)."""
    root = node
    while isinstance(root, cst.Attribute):
        root = root.value
    return get_full_name_for_node(node) if isinstance(root, cst.Name) else None


def module_dotted(node: cst.Attribute | cst.Name) -> str:
    return get_full_name_for_node(node) or ""


def is_type_checking_test(test: cst.BaseExpression) -> bool:
    name = dotted(test)
    return name in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING")


@dataclass(slots=True)
class Binding:
    """A module-level import: `local` names `target` (a module or `module.name`)."""

    local: str
    target: str
    is_module: bool  # `import a.b` (a module) rather than `from a import b`
    type_checking: bool


@dataclass(slots=True)
class ModuleNames:
    """The names a module binds at its top level, enough to resolve bases and the result class."""

    module: str | None
    is_package: bool
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    other: set[str] = field(default_factory=set)  # bound by defs, classes, assignments
    future_annotations: bool = False

    @classmethod
    def of(cls, tree: cst.Module, module: str | None, is_package: bool) -> ModuleNames:
        names = cls(module, is_package)
        names._scan(tree.body, type_checking=False)
        return names

    def _scan(self, body: Sequence[cst.CSTNode], *, type_checking: bool) -> None:
        for statement in body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import | cst.ImportFrom):
                        self._import(small, type_checking)
                    elif isinstance(small, cst.Assign):
                        for target in small.targets:
                            self.other.update(target_names(target.target))
                    elif isinstance(small, cst.AnnAssign | cst.AugAssign):
                        self.other.update(target_names(small.target))
            elif isinstance(statement, cst.ClassDef | cst.FunctionDef):
                self.other.add(statement.name.value)
            elif isinstance(statement, cst.If):
                checking = type_checking or is_type_checking_test(statement.test)
                self._scan(statement.body.body, type_checking=checking)
                orelse = statement.orelse
                while orelse is not None:
                    self._scan(orelse.body.body, type_checking=type_checking)
                    orelse = orelse.orelse if isinstance(orelse, cst.If) else None
            elif isinstance(statement, cst.Try):
                self._scan(statement.body.body, type_checking=type_checking)
                for handler in statement.handlers:
                    self._scan(handler.body.body, type_checking=type_checking)

    def _import(self, node: cst.Import | cst.ImportFrom, type_checking: bool) -> None:
        if isinstance(node, cst.Import):
            for alias in node.names:
                target = module_dotted(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self._bind(Binding(alias.asname.name.value, target, True, type_checking))
                else:
                    head = target.partition(".")[0]
                    self._bind(Binding(head, target, True, type_checking))
            return
        base = self._from_base(node)
        if base is None or isinstance(node.names, cst.ImportStar):
            return
        if base == "__future__":
            if any(
                a.name.value == "annotations" for a in node.names if isinstance(a.name, cst.Name)
            ):
                self.future_annotations = True
            return
        for alias in node.names:
            name = module_dotted(alias.name)
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self._bind(Binding(local, f"{base}.{name}", False, type_checking))

    def _from_base(self, node: cst.ImportFrom) -> str | None:
        package = self.module if self.is_package else (self.module or "").rpartition(".")[0]
        return get_absolute_module_from_package_for_import(package, node)

    def _bind(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.local, []).append(binding)

    def resolve(self, node: cst.BaseExpression, local_classes: Iterable[str] = ()) -> str | None:
        """The dotted name an expression refers to, through imports and aliases."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        bound = self.bindings.get(head)
        if bound:
            binding = next((b for b in bound if not b.type_checking), bound[0])
            if binding.is_module and binding.local == binding.target.partition(".")[0]:
                return name  # `import a.b` binds `a`; `a.b.C` is literally that
            return f"{binding.target}.{rest}" if rest else binding.target
        if head in local_classes and self.module:
            return f"{self.module}.{name}"
        return name


def target_names(target: cst.BaseExpression) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            yield from target_names(element.value)


def def_lines(text: str, names: Iterable[str]) -> dict[str, list[int]]:
    """1-based lines of `def NAME` / `async def NAME` starts, per name, in source order."""
    wanted = "|".join(re.escape(n) for n in names)
    if not wanted:
        return {}
    # `def` first (a literal the regex engine searches fast), then the line's start: `^`
    # with re.M tries every position of the text.
    found: dict[str, list[int]] = {}
    line, last = 1, 0
    for match in _def_name(wanted).finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if _BEFORE_DEF.fullmatch(text, start, match.start()) is None:
            continue
        line += text.count("\n", last, start)
        last = start
        found.setdefault(match[1], []).append(line)
    return found


_BEFORE_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?")


@functools.lru_cache(maxsize=64)
def _def_name(wanted: str) -> re.Pattern[str]:
    return re.compile(rf"def[ \t]+({wanted})\b")
