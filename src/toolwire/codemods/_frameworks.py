"""The tool shapes of the framework presets (`presets.toml`), read once per preset list.

A shape says how to find a framework's tools (a base class and its methods, a decorator,
an attribute of a framework object, a factory call) and which adapter to wire a migrated
tool to. Every framework is data; nothing here names one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, cast

from toolwire.config import presets

__all__ = ["ClassShape", "FunctionShape", "Shapes", "shapes_for"]

Wire = Literal["replace", "under", "factory"]


@dataclass(frozen=True, slots=True)
class ClassShape:
    framework: str
    bases: frozenset[str]
    methods: tuple[str, ...]
    adapter: str
    local_import: bool
    methods_from: str = ""  # a class attribute listing the tool methods (`spec_functions`)


@dataclass(frozen=True, slots=True)
class FunctionShape:
    framework: str
    decorators: frozenset[str]  # `@agents.function_tool`, `@tool(...)`
    instances: frozenset[str]  # with `attributes`: `@mcp.tool()` on `mcp = FastMCP(...)`
    attributes: frozenset[str]
    factories: frozenset[str]  # `FunctionTool.from_defaults(fn=f)`
    adapter: str
    wire: Wire
    local_import: bool
    refuse: frozenset[str] = frozenset()  # decorator keywords the adapter does not take


@dataclass(frozen=True, slots=True)
class Shapes:
    classes: tuple[ClassShape, ...] = ()
    functions: tuple[FunctionShape, ...] = ()

    @property
    def methods(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m for c in self.classes for m in c.methods))

    @property
    def words(self) -> tuple[str, ...]:
        """Identifiers one of which a file must contain to hold a tool no `def` name finds."""
        names: list[str] = []
        for shape in self.functions:
            names += [d.rpartition(".")[2] for d in shape.decorators]
            names += list(shape.attributes)
            names += [f.rpartition(".")[2] for f in shape.factories]
        names += [c.methods_from for c in self.classes if c.methods_from]
        return tuple(dict.fromkeys(names))

    def __bool__(self) -> bool:
        return bool(self.classes or self.functions)


def _strings(table: dict[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key, [])
    return tuple(str(v) for v in value) if isinstance(value, list) else (str(value),)


@cache
def shapes_for(names: tuple[str, ...]) -> Shapes:
    known = presets()
    classes: list[ClassShape] = []
    functions: list[FunctionShape] = []
    for name in names:
        preset = known.get(name, {})
        for table in preset.get("class-tools", []):
            classes.append(
                ClassShape(
                    name,
                    frozenset(_strings(table, "bases")),
                    _strings(table, "methods"),
                    str(table["adapter"]),
                    bool(table.get("local-import", False)),
                    str(table.get("methods-from", "")),
                )
            )
        for table in preset.get("function-tools", []):
            wire = str(table.get("wire", "replace"))
            assert wire in ("replace", "under", "factory"), wire
            functions.append(
                FunctionShape(
                    name,
                    frozenset(_strings(table, "decorators")),
                    frozenset(_strings(table, "instances")),
                    frozenset(_strings(table, "attributes")),
                    frozenset(_strings(table, "factories")),
                    str(table["adapter"]),
                    cast(Wire, wire),
                    bool(table.get("local-import", False)),
                    frozenset(_strings(table, "refuse-keywords")),
                )
            )
    return Shapes(tuple(classes), tuple(functions))
