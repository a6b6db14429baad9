"""A module's text with the bodies the tool-returns plan cannot read blanked, for LibCST.

LibCST's parse costs in proportion to the text. Pass one plans from the whole tree, but
only a few function bodies can change the plan: a body that names no word the planner
looks for (a tool method, a framework shape word, the result and adapter classes, a name
of the run's other files, a class, function or module-level name of this module, but not
a plain constant whose statement names none of these: the plan reads constants from the
module's statements, never from a body that reads them) and binds nothing out of its own
scope (`global`, `nonlocal`, a nested `def`/`class`; a local import binds a local, which
the plan reads only in a tool's scopes) is read by no step of the plan. A function that
may be a tool by its name is kept whole. A blanked body is replaced line for line, its
first line by `...  # SENTINEL` and the others by a comment at its indentation (a blank
line would go to the next statement, whose leading lines `splice` checks): line numbers
and kept columns stay, so the rewrite is spliced into the original text by `ast` line
numbers. Words are matched in the text, comments and strings included, which only keeps
more.

The caller redoes a file from the whole text whenever a step generates the whole tree
(the sentinel shows in the result) or rewrites it (unused imports dropped).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from toolwire.lint.codemods.crossfile import CrossFile
from toolwire.lint.config import Config
from toolwire.lint.model import shapes_for

__all__ = ["SENTINEL", "Skeleton", "denied_words", "reads_strings", "skeleton"]

SENTINEL = "toolwire-skeleton-blanked-9c41d2"

_WORD = re.compile(r"[^\W\d]\w*")  # an identifier, in any script
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


def _words_of(text: str) -> list[str]:
    """The identifiers written in `text`, also as Python reads them (NFKC: `ﬁnd` is
    `find`), which `ast` names give and LibCST's do not."""
    found = _WORD.findall(text)
    if not text.isascii():
        found += _WORD.findall(unicodedata.normalize("NFKC", text))
    return found


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


def _module_names(
    tree: ast.Module, denied: frozenset[str], strings: bool, lines: list[str] | None = None
) -> set[str]:
    """The names of this module a body must not hold: every class, every function that
    is not a method, every decorated method, every name bound outside function and class
    bodies (an import only when it names a denied word or renames; with `lines`, a plain
    assignment only when its lines hold a denied word or another such name), and with
    `strings` every identifier written as a string outside function bodies
    (`spec_functions = ["search"]` lists tool methods)."""
    names: set[str] = set()
    plain: list[tuple[list[str], ast.stmt]] = []
    decorated: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_class = stack.pop()
        if in_class and not strings and not isinstance(node, _BLOCKS):
            continue  # a class's expressions bind nothing outside it
        if lines is not None and not in_class and _plain(node):
            assert isinstance(node, ast.Assign | ast.AnnAssign)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            plain.append(([t.id for t in targets if isinstance(t, ast.Name)], node))
            parts = [node.value] if isinstance(node, ast.Assign) else [node.annotation]
            if isinstance(node, ast.AnnAssign) and node.value is not None:
                parts.append(node.value)
            stack.extend((child, in_class) for child in parts)  # strings, walruses
            continue
        if isinstance(node, _FUNCTIONS):
            if not in_class:
                names.add(node.name)
            elif node.decorator_list:
                decorated.append(node)
            # its body's own names (a nested def, a local) are its business: a body that
            # defines one is never blanked, and another reaches it only by `nonlocal`
            heads: list[ast.AST] = [*node.decorator_list, node.args]
            stack.extend(
                (child, in_class) for child in [*heads, *([node.returns] if node.returns else [])]
            )
            continue
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            # its head is evaluated where it stands; its body is the class's own
            stack.extend((child, in_class) for child in [*node.decorator_list, *node.bases])
            stack.extend((child, in_class) for child in node.keywords)
            stack.extend((child, True) for child in node.body)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and not in_class:
            names.add(node.id)  # a class's own attributes are read through `self`
        elif isinstance(node, ast.alias):
            bound = node.asname or node.name.partition(".")[0]
            if node.asname or not denied.isdisjoint(_WORD.findall(node.name)):
                names.add(bound)
        elif strings and isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.isidentifier():
                names.add(node.value)
        stack.extend((child, in_class) for child in ast.iter_child_nodes(node))
    if lines is not None:
        _plain_names(plain, names, denied, lines)
    # a method a framework's decorator makes a tool (`@mcp.tool`, `@tool` renamed)
    for method in decorated:
        for decorator in method.decorator_list:
            if not _named(decorator).isdisjoint(names) or not _named(decorator).isdisjoint(denied):
                names.add(method.name)
    return names


def _plain(node: ast.AST) -> bool:
    """A plain assignment to names (`logger = ...`, `LIMIT: int = 5`)."""
    if isinstance(node, ast.Assign):
        return all(isinstance(t, ast.Name) for t in node.targets)
    return isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)


def _plain_names(
    plain: list[tuple[list[str], ast.stmt]],
    names: set[str],
    denied: frozenset[str],
    lines: list[str],
) -> None:
    """Add to `names` the names of plain assignments whose lines hold a denied word or a
    name of `names`, until none is added. The plan reads a module constant from the
    module's own statements (a tool list, an instance that makes tools, an alias of a
    class or a tool), never from a body that reads it: one that names nothing the plan
    looks for is a name the plan has no use for."""
    spans = [
        (
            targets,
            set().union(
                *(_words_of(lines[n]) for n in range(s.lineno - 1, s.end_lineno or s.lineno))
            ),
        )
        for targets, s in plain
    ]
    added = True
    while added:
        added = False
        for targets, words in spans:
            if not names.issuperset(targets) and not (
                words.isdisjoint(names) and words.isdisjoint(denied)
            ):
                names.update(targets)
                added = True


def _named(node: ast.AST) -> set[str]:
    return {
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    }


def reads_strings(config: Config) -> bool:
    """Whether a preset lists tool methods by name in a string (`methods-from`)."""
    return any(shape.methods_from for shape in shapes_for(config.presets).classes)


def skeleton(
    text: str, tree: ast.Module, denied: frozenset[str], strings: bool = True
) -> Skeleton | None:
    """`text` (parsed by `ast` as `tree`) with every function body that holds none of
    `denied` blanked, line for line; None when nothing is blanked or the text is odd."""
    if "\r" in text or "\f" in text or "\0" in text or not text.endswith("\n"):
        return None
    if SENTINEL in text:
        return None
    lines = text.split("\n")
    words = denied | _module_names(tree, denied, strings, lines)
    counts = Counter(_WORD.findall(text))
    if not text.isascii():  # as `_named_elsewhere` counts: line by line
        counts = Counter(w for line in lines for w in _words_of(line))
    spans: list[tuple[int, int]] = []
    # what is defined inside a function: a body that names one is kept (below)
    local: set[str] = _walked_defs(tree) if counts["global"] else set()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        method = isinstance(node, ast.ClassDef)
        inside = inside or isinstance(node, _FUNCTIONS)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _FUNCTIONS | ast.ClassDef) and inside:
                local.add(child.name)
            if isinstance(child, _FUNCTIONS):
                if child.name in (words if method else denied) or (
                    not method and _named_elsewhere(child, lines, counts)
                ):
                    continue  # a tool, or one maybe: it and what it holds stay whole
                span = _blankable(child, lines, words)
                if span is not None:
                    spans.append(span)
                    continue
            if isinstance(child, _BLOCKS):
                stack.append((child, inside))
    if local:
        spans = [s for s in spans if _names_none(lines, s, local)]
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


def _walked_defs(tree: ast.Module) -> set[str]:
    """The names of the functions and classes defined inside a function, at any depth
    (one declared `global` binds a module name: any body may use it)."""
    found: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        if isinstance(node, _FUNCTIONS | ast.ClassDef) and inside:
            found.add(node.name)
        below = inside or isinstance(node, _FUNCTIONS)
        stack.extend((c, below) for c in ast.iter_child_nodes(node) if isinstance(c, _BLOCKS))
    return found


def _names_none(lines: list[str], span: tuple[int, int], names: set[str]) -> bool:
    """Whether the lines of `span` name none of `names`. The plan reads every use of a
    function handed to a factory (`references`), also from a body beside it in the same
    function (a method of a class there calling it). Only a function the walk enters
    holds a definition the walk does not see: a tool's (kept whole, and no body can
    name what it defines unless by `global`) or a blanked one's (it holds no `def`)."""
    return all(names.isdisjoint(_words_of(lines[n])) for n in range(span[0] - 1, span[1]))


def _named_elsewhere(
    node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], counts: Counter[str]
) -> bool:
    """Whether a function's name is written outside the function itself: the plan may
    take it for a tool (handed to a factory or listed, at any depth). A method is a tool
    by its name (a tool method, listed in `spec_functions`) or a framework's decorator."""
    name = node.name
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    own = sum(_words_of(lines[n]).count(name) for n in range(first - 1, node.end_lineno or 0))
    return counts[name] > own


def _blankable(
    node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], words: frozenset[str] | set[str]
) -> tuple[int, int] | None:
    """The lines of `node`'s body, when it may be blanked."""
    if node.end_lineno is None:
        return None
    for decorator in node.decorator_list:  # `@property`, `@classmethod`: kept, and named
        for number in range(decorator.lineno - 1, decorator.end_lineno or decorator.lineno):
            if not words.isdisjoint(_words_of(lines[number])):
                return None
    first, last = node.body[0].lineno, node.end_lineno
    if first <= node.lineno:
        return None  # `def f(): ...` on one line
    line = lines[first - 1]
    # the body starts its line (offsets are UTF-8 bytes; indentation is ASCII)
    if line.encode("utf-8")[: node.body[0].col_offset].strip(b" \t"):
        return None
    for number in range(first - 1, last):
        if not words.isdisjoint(_words_of(lines[number])):
            return None
    return first, last
