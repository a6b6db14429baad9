"""A module's text with the bodies the tool-returns plan cannot read blanked, for LibCST.

LibCST's parse costs in proportion to the text. Pass one plans from the whole tree, but
only a few of its function bodies can change the plan: a body that names no word the
planner looks for (a tool method, a framework shape word, the result and adapter
classes, a name of the run's other files, a `def`/`class` of this module, ...) and binds
no name out of its own scope (`global`, `import`, a nested `def`/`class`) is read by no
step of the plan. Such a body is replaced line for line (its first line by `...  #
SENTINEL`, the others by nothing): every line number and every kept column stays, so the
rewrite is spliced into the original text by `ast` line numbers (`splice`). The words
are matched in the body's text, comments and strings included, which only keeps more.

The caller redoes a file from the whole text whenever a step reads or generates the
whole tree, and whenever the sentinel shows in the result.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from typing import Any

from toolwire.lint.codemods.crossfile import CrossFile
from toolwire.lint.config import Config
from toolwire.lint.model import shapes_for

__all__ = ["SENTINEL", "Skeleton", "denied_words", "skeleton"]

SENTINEL = "toolwire-skeleton-blanked-9c41d2"

_WORD = re.compile(r"[A-Za-z_]\w*")
# Statements and words that reach out of a body, or define what the plan may treat as a
# tool; `yield` and `super` only to stay far from anything the plan reads.
_KEYWORDS = frozenset(("def", "class", "lambda", "global", "nonlocal", "yield", "super"))
_FUNCTIONS = ast.FunctionDef | ast.AsyncFunctionDef
_BLOCKS = ast.stmt | ast.excepthandler | ast.match_case


class Skeleton:
    """The blanked text and how many characters it blanked."""

    __slots__ = ("blanked", "text")

    def __init__(self, text: str, blanked: int) -> None:
        self.text = text
        self.blanked = blanked


# Fields of a shape that hold no name: how its tools are wired, a reason shown.
_NOT_NAMES = frozenset(("wire", "reason"))


def _strings(value: Any) -> Iterator[str]:
    """Every str in a nest of tuples, frozensets and NamedTuples (a preset's shapes)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        for name, item in zip(value._fields, value, strict=True):
            if name not in _NOT_NAMES:
                yield from _strings(item)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)


def _words(values: Iterable[str]) -> set[str]:
    return {w for value in values for w in _WORD.findall(value)}


def _ends(dotted: Iterable[str]) -> set[str]:
    """The first and last words of dotted names: a body can name `a.b.C` only by its root
    module or (imported) by its last name; the module's own imports are names too."""
    found: set[str] = set()
    for name in dotted:
        words = _WORD.findall(name)
        if words:
            found.update((words[0], words[-1]))
    return found


_CONFIG_WORDS: dict[tuple[int, int], tuple[Config, CrossFile, frozenset[str]]] = {}


def denied_words(config: Config, cross: CrossFile) -> frozenset[str]:
    """The words a body must not hold to be blanked under this config and round."""
    key = (id(config), id(cross))
    cached = _CONFIG_WORDS.get(key)
    if cached is not None and cached[0] is config and cached[1] is cross:
        return cached[2]
    shapes = shapes_for(config.presets)
    named = [*config.tool_methods, *shapes.methods, *shapes.words, *_strings(tuple(shapes))]
    named += ["toolwire", "ToolResult", "ToolArtifact", "result_tool"]
    dotted = [
        *config.result_classes,
        *config.result_names,
        *config.artifact_classes,
        *config.tool_bases,
    ]
    # What the other files of the run are (classes, instances, re-exports, results by
    # `Class.method`): a class and its method are the last two words.
    others = [*_strings(tuple(cross.classes.items())), *cross.wired, *cross.results]
    others += [*cross.blocked, *cross.held, *_strings(tuple(cross.instances.items()))]
    others += _strings(tuple(cross.reexports.items()))
    ends = _ends(dotted) | _ends(others) | _ends(o.rpartition(".")[0] for o in others)
    words = frozenset(_words(named) | ends | _KEYWORDS)
    if len(_CONFIG_WORDS) > 16:
        _CONFIG_WORDS.clear()
    _CONFIG_WORDS[key] = (config, cross, words)
    return words


def _module_names(tree: ast.Module, denied: frozenset[str]) -> set[str]:
    """The names of this module a body must not hold: every class, every function that
    is not a method, every decorated method, every name bound outside function bodies
    (an import only when it names a denied word or renames), and every word of a string
    outside function bodies (`spec_functions = ["search"]` lists tool methods)."""
    names: set[str] = set()
    decorated: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_class = stack.pop()
        if isinstance(node, _FUNCTIONS):
            if not in_class:
                names.add(node.name)
            elif node.decorator_list:
                decorated.append(node)
            for child in ast.walk(node):  # what a nested def or class names
                if isinstance(child, ast.ClassDef) or (
                    isinstance(child, _FUNCTIONS) and child is not node
                ):
                    names.add(child.name)
            continue  # a function body's own locals are its business
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and not in_class:
            names.add(node.id)  # a class's own attributes are read through `self`
        elif isinstance(node, ast.alias):
            bound = node.asname or node.name.partition(".")[0]
            if node.asname or not denied.isdisjoint(_WORD.findall(node.name)) or IMPORTS:
                names.add(bound)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.isidentifier():
                names.add(node.value)
        inside = in_class or isinstance(node, ast.ClassDef)
        stack.extend((child, inside) for child in ast.iter_child_nodes(node))
    # a method a framework's decorator makes a tool (`@mcp.tool`, `@tool` renamed)
    for method in decorated:
        for decorator in method.decorator_list:
            if not _named(decorator).isdisjoint(names) or not _named(decorator).isdisjoint(denied):
                names.add(method.name)
    return names


def _named(node: ast.AST) -> set[str]:
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    }


IMPORTS = False


def skeleton(text: str, tree: ast.Module, denied: frozenset[str]) -> Skeleton | None:
    """`text` (parsed by `ast` as `tree`) with every function body that holds none of
    `denied` blanked, line for line; None when nothing is blanked or the text is odd."""
    if "\r" in text or "\f" in text or "\0" in text or not text.endswith("\n"):
        return None
    if SENTINEL in text:
        return None
    lines = text.split("\n")
    words = denied | _module_names(tree, denied)
    spans: list[tuple[int, int]] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _FUNCTIONS):
                span = _blankable(child, lines, words)
                if span is not None:
                    spans.append(span)
                    continue
            if isinstance(child, _BLOCKS):
                stack.append(child)
    if not spans:
        return None
    blanked = 0
    for first, last in spans:
        line = lines[first - 1]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        blanked += sum(len(lines[n]) for n in range(first - 1, last))
        lines[first - 1] = f"{indent}...  # {SENTINEL}"
        for number in range(first, last):
            lines[number] = f"{indent}#"
    return Skeleton("\n".join(lines), blanked)


def _blankable(
    node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], words: frozenset[str] | set[str]
) -> tuple[int, int] | None:
    """The lines of `node`'s body, when it may be blanked."""
    if node.name in words or node.end_lineno is None:
        return None
    for decorator in node.decorator_list:  # `@property`, `@classmethod`: kept, and named
        for number in range(decorator.lineno - 1, decorator.end_lineno or decorator.lineno):
            if not words.isdisjoint(_WORD.findall(lines[number])):
                return None
    first, last = node.body[0].lineno, node.end_lineno
    if first <= node.lineno:
        return None  # `def f(): ...` on one line
    line = lines[first - 1]
    # the body starts its line (offsets are UTF-8 bytes; indentation is ASCII)
    if line.encode("utf-8")[: node.body[0].col_offset].strip(b" \t"):
        return None
    for number in range(first - 1, last):
        if not words.isdisjoint(_WORD.findall(lines[number])):
            return None
    return first, last
