"""The tool-returns migration itself: plan a module, then rewrite what the plan says.

Kept apart from the LibCST command class (`tool_returns.py`) so that `toolwire migrate`
does not pay for importing `libcst.codemod` and its matchers.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from toolwire.codemods._common import (
    ModuleNames,
    ResultRef,
    _is_docstring,
    _target_names,
    adapter_reference,
    def_lines,
    dotted,
    insert_imports,
)
from toolwire.codemods._common import result_reference as _result_reference
from toolwire.codemods._crossfile import FAMILY, CrossFile, Member, family_holds
from toolwire.codemods._reports import MethodEvent, ToolReturnsReport
from toolwire.config import Config
from toolwire.engine import module_name
from toolwire.model import ClassShape, FunctionShape, shapes_for

__all__ = ["ToolReturns"]

_N = TypeVar("_N", bound=cst.CSTNode)
# Decorators known to hand a method's return value back unchanged (a bare builtin name
# is the builtin only while the module does not bind it).
_PASS_THROUGH = frozenset(
    {
        "staticmethod",
        "classmethod",
        "abc.abstractmethod",
        "typing.override",
        "typing_extensions.override",
        "typing.final",
        "typing_extensions.final",
        "typing.no_type_check",
        "typing.overload",
        "typing_extensions.overload",
        "functools.wraps",
        "functools.cache",
        "functools.lru_cache",
        "warnings.deprecated",
        "typing_extensions.deprecated",
    }
)
_PENDING = "pending:"  # an `unknown:` another round of pass one may settle
_STR = frozenset({"str", "builtins.str"})


@dataclass(slots=True)
class _Method:
    node: cst.FunctionDef
    cls: _Class | None  # None: a function tool
    status: str = "migrate"  # migrate | already | skip
    reason: str = ""
    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)
    shape: ClassShape | FunctionShape | None = None  # the framework shape that found it
    decorator: int = -1  # a function tool: the index of the framework's decorator
    pending: bool = False  # skipped until another file of the run says what it returns

    @property
    def owner(self) -> str:
        return self.cls.qualname if self.cls is not None else ""


@dataclass(slots=True)
class _Class:
    node: cst.ClassDef
    qualname: str
    top_level: bool
    methods: dict[str, _Method] = field(default_factory=dict)


# What can hold a statement. Walking only these (not expressions) is what keeps planning
# and rewriting cheap: LibCST's visitors rebuild every node they pass.
_STATEMENTISH = (
    cst.BaseSuite,
    cst.BaseStatement,
    cst.BaseSmallStatement,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
)
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_SCOPE_TYPES = frozenset(_SCOPES)  # parsed trees hold these exact types
# What no walk here looks into: whitespace, comments, brackets, commas, operators. Most
# of a tree's nodes are these; a field typed as only these is never entered.
_PUNCTUATION: tuple[type, ...] = (
    cst.BaseParenthesizableWhitespace,
    cst.TrailingWhitespace,
    cst.EmptyLine,
    cst.Newline,
    cst.Comment,
    cst.LeftParen,
    cst.RightParen,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.Semicolon,
    cst.Comma,
    cst.Colon,
    cst.Dot,
    cst.AssignEqual,
    cst.ImportStar,
    cst.BitOr,
    cst.BaseBinaryOp,
    cst.BaseBooleanOp,
    cst.BaseCompOp,
    cst.BaseUnaryOp,
    cst.BaseAugOp,
    cst.Asynchronous,
    cst.MaybeSentinel,
    str,
    bool,
    type(None),
)
_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}


def _punctuation_only(annotation: object) -> bool:
    """Every value the annotation admits is punctuation or a plain value (never a node
    that can hold an expression or a statement); unknown forms are not."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin is not None:  # Optional, Union, Sequence
        return all(_punctuation_only(a) for a in typing.get_args(annotation))
    return isinstance(annotation, type) and _derives(annotation, _PUNCTUATION)


def _derives(kind: type, bases: tuple[type, ...]) -> bool:
    """`issubclass(kind, bases)` by the MRO: LibCST registers no virtual subclasses, and
    abc's subclass check walks every subclass of each base it is not (0.2 s per run)."""
    return any(base in bases for base in kind.__mro__)


def _field_names(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of `node` that can hold an expression or a statement."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(
            f.name for f in dataclasses.fields(kind) if not _punctuation_only(f.type)
        )
    return names


# Node type -> what a walk does with it: _SKIP, _EXPRESSIONISH (entered by full walks) or
# _STATEMENT (entered by every walk). Looked up by exact type: an isinstance check against
# LibCST's abstract classes costs more than the rest of the walk.
_SKIP, _EXPRESSIONISH, _STATEMENT = 0, 1, 2
_KINDS: dict[type, int] = {}


def _kind(kind: type) -> int:
    found = _KINDS.get(kind)
    if found is None:
        if not _derives(kind, (cst.CSTNode,)) or _derives(kind, _PUNCTUATION):
            found = _SKIP
        else:
            found = _STATEMENT if _derives(kind, _STATEMENTISH) else _EXPRESSIONISH
        _KINDS[kind] = found
    return found


def _children(node: cst.CSTNode, statements: bool = False) -> list[cst.CSTNode]:
    """The children of `node` a walk enters; with `statements`, only the statement-ish."""
    least = _STATEMENT if statements else _EXPRESSIONISH
    kinds = _KINDS
    found: list[cst.CSTNode] = []
    for name in _field_names(node):
        value = getattr(node, name)
        if isinstance(value, tuple | list):
            for item in value:
                kind = kinds.get(type(item))
                if (_kind(type(item)) if kind is None else kind) >= least:
                    found.append(item)
        else:
            kind = kinds.get(type(value))
            if (_kind(type(value)) if kind is None else kind) >= least:
                found.append(value)
    return found


@dataclass(slots=True)
class _Scan:
    """The returns and yields of one function's own scope (not nested defs, lambdas, classes)."""

    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)
    bare: str = ""
    generator: bool = False
    # (names bound, value or None, annotated Optional) of each assignment
    assigns: list[tuple[list[str], cst.BaseExpression | None, bool]] = field(default_factory=list)

    @classmethod
    def of(cls, func: cst.FunctionDef, yields_possible: bool) -> _Scan:
        scan = cls()
        stack: list[tuple[cst.CSTNode, bool]] = [(func.body, False)]
        while stack:
            node, in_except = stack.pop()
            kind = type(node)
            if kind is cst.Return:
                scan.record(cast(cst.Return, node), in_except)
            elif kind is cst.Assign or kind is cst.AnnAssign:
                scan.assigned(cast(cst.Assign | cst.AnnAssign, node))
            if kind in _SCOPE_TYPES:
                continue
            inner = in_except or kind is cst.ExceptHandler or kind is cst.ExceptStarHandler
            stack += [(child, inner) for child in _children(node, statements=True)]
        if yields_possible:
            scan.generator = _has_yield(func.body)
        return scan

    def record(self, node: cst.Return, in_except: bool) -> None:
        value = node.value
        if value is None:
            self.bare = self.bare or "has a bare `return`"
        elif isinstance(value, cst.Name) and value.value == "None" and not value.lpar:
            self.bare = self.bare or "returns `None`"
        self.returns.append((node, in_except))

    def assigned(self, node: cst.Assign | cst.AnnAssign) -> None:
        if isinstance(node, cst.AnnAssign):
            names = list(_target_names(node.target))
            self.assigns.append((names, node.value, _mentions_none(node.annotation.annotation)))
        else:
            names = [n for t in node.targets for n in _target_names(t.target)]
            self.assigns.append((names, node.value, False))

    def nones(self) -> set[str]:
        """The names some assignment may bind to None (`b = a` after `a = None` too): a
        worklist over the names each value may be, linear in the assignments."""
        found: set[str] = set()
        waiting: dict[str, list[list[str]]] = {}  # name -> the targets of values that may be it
        ready: list[list[str]] = []
        for names, value, optional in self.assigns:
            results = _result_names(value) if value is not None else []
            if optional or "None" in results:
                ready.append(names)
            for name in results:
                waiting.setdefault(name, []).append(names)
        while ready:
            for name in ready.pop():
                if name not in found:
                    found.add(name)
                    ready += waiting.pop(name, [])
        return found

    def none_path(self, func: cst.FunctionDef) -> str:
        """Why a call of `func` may give None other than by `return None`, or ""."""
        nones = self.nones() if self.assigns else set()
        for node, _ in self.returns:
            results = _result_names(node.value) if node.value is not None else []
            if "None" in results:
                return "returns a value that can be `None` (a `None` branch or operand)"
            named = next((n for n in results if n in nones), None)
            if named is not None:
                return f"returns `{named}`, which can be `None`"
        if not _declaration(func.body) and not _suite_ends(func.body):
            return "can reach its end, which returns `None`"
        return ""


def _may_be_none(value: cst.BaseExpression, nones: set[str]) -> bool:
    """The expression's value can be the `None` written in it (or a name bound to one)."""
    return any(n == "None" or n in nones for n in _result_names(value))


def _result_names(value: cst.BaseExpression) -> list[str]:
    """The names whose value the expression's value can be: itself, a ternary's branches,
    a boolean operand, a walrus's value. A loop, not recursion: a chain of thousands of
    ternaries must not overflow."""
    found: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            found.append(node.value)
        elif isinstance(node, cst.IfExp):
            stack += (node.body, node.orelse)
        elif isinstance(node, cst.BooleanOperation):
            stack += (node.left, node.right)
        elif isinstance(node, cst.NamedExpr):
            stack.append(node.value)
    return found


def _mentions_none(annotation: cst.BaseExpression) -> bool:
    """`Optional[...]`, `X | None`, `Union[..., None]`: an annotation that admits None."""
    stack = [annotation]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            if node.value == "None":
                return True
        elif isinstance(node, cst.BinaryOperation):
            stack += (node.left, node.right)
        elif isinstance(node, cst.Subscript):
            if (dotted(node.value) or "").rpartition(".")[2] == "Optional":
                return True
            stack += [e.slice.value for e in node.slice if isinstance(e.slice, cst.Index)]
        elif isinstance(node, cst.SimpleString):
            if "None" in node.value or "Optional" in node.value:
                return True
    return False


def _declaration(suite: cst.BaseSuite) -> bool:
    """A body of only a docstring, `pass`, `...`: a declaration, not an implementation."""
    for statement in _suite_smalls(suite):
        if isinstance(statement, cst.Pass):
            continue
        if isinstance(statement, cst.Expr) and isinstance(
            statement.value, cst.Ellipsis | cst.SimpleString | cst.ConcatenatedString
        ):
            continue
        return False
    return True


def _suite_smalls(suite: cst.BaseSuite) -> Iterator[cst.CSTNode]:
    """The statements of a suite, each simple line's small statements one by one."""
    if isinstance(suite, cst.SimpleStatementSuite):
        yield from suite.body
        return
    assert isinstance(suite, cst.IndentedBlock)
    for statement in suite.body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        else:
            yield statement


def _suite_ends(suite: cst.BaseSuite | None) -> bool:
    """Control never reaches the end of the suite: some statement returns or raises on
    every path. Loops that may not run, and calls, are assumed to come back."""
    return suite is not None and any(_stops(s) for s in _suite_smalls(suite))


def _stops(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Return | cst.Raise):
        return True
    if isinstance(node, cst.Assert):
        return isinstance(node.test, cst.Name) and node.test.value == "False"
    if isinstance(node, cst.If):
        orelse = node.orelse
        if orelse is None or not _suite_ends(node.body):
            return False
        return _stops(orelse) if isinstance(orelse, cst.If) else _suite_ends(orelse.body)
    if isinstance(node, cst.Try | cst.TryStar):
        if node.finalbody is not None and _suite_ends(node.finalbody.body):
            return True
        ran = _suite_ends(node.body) or (node.orelse is not None and _suite_ends(node.orelse.body))
        return ran and all(_suite_ends(h.body) for h in node.handlers)
    if isinstance(node, cst.With):
        return _suite_ends(node.body)
    if isinstance(node, cst.While | cst.For):
        if _breaks(node.body):
            return False
        if isinstance(node, cst.While) and _always_true(node.test):
            return True
        return node.orelse is not None and _suite_ends(node.orelse.body)
    if isinstance(node, cst.Match):
        return any(_irrefutable(c) for c in node.cases) and all(
            _suite_ends(c.body) for c in node.cases
        )
    return False


def _always_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "True"
    return isinstance(test, cst.Integer) and test.evaluated_value != 0


def _irrefutable(case: cst.MatchCase) -> bool:
    pattern = case.pattern
    if case.guard is not None:
        return False
    if isinstance(pattern, cst.MatchOr):
        return any(
            isinstance(p.pattern, cst.MatchAs) and p.pattern.pattern is None
            for p in pattern.patterns
        )
    return isinstance(pattern, cst.MatchAs) and pattern.pattern is None


def _breaks(suite: cst.BaseSuite) -> bool:
    """A `break` of this loop (not of a loop inside it, nor of a nested def)."""
    stack: list[cst.CSTNode] = [suite]
    while stack:
        node = stack.pop()
        if type(node) is cst.Break:
            return True
        if type(node) in _SCOPE_TYPES or isinstance(node, cst.For | cst.While):
            continue
        stack += _children(node, statements=True)
    return False


def _imports(node: cst.CSTNode | None, local: str, target: str) -> bool:
    """`node` is a `from m import n` that binds `local` to `target` (`m.n`)."""
    if not isinstance(node, cst.ImportFrom) or node.relative or node.module is None:
        return False
    if isinstance(node.names, cst.ImportStar):
        return False
    module, _, name = target.rpartition(".")
    if dotted(node.module) != module:
        return False
    for alias in node.names:
        bound = alias.asname.name if alias.asname is not None else alias.name
        if (
            isinstance(alias.name, cst.Name)
            and alias.name.value == name
            and isinstance(bound, cst.Name)
            and bound.value == local
        ):
            return True
    return False


def _passing_decorators(body: Sequence[cst.BaseStatement]) -> frozenset[str]:
    """This module's top-level decorators that hand the return value back unchanged:
    `def d(fn): return fn`, and `def d(fn)` whose `functools.wraps(fn)` wrapper only
    ever returns `fn(...)` (or awaits it)."""
    found: set[str] = set()
    for statement in body:
        if not isinstance(statement, cst.FunctionDef) or statement.decorators:
            continue
        params = statement.params
        if len(params.params) != 1 or params.posonly_params or params.kwonly_params:
            continue
        fn = params.params[0].name.value
        smalls = [s for s in _suite_smalls(statement.body) if not _docstring_expr(s)]
        if not smalls or not isinstance(smalls[-1], cst.Return):
            continue
        returned = smalls[-1].value
        if not isinstance(returned, cst.Name):
            continue
        if returned.value == fn and len(smalls) == 1:
            found.add(statement.name.value)
            continue
        if len(smalls) == 2 and isinstance(smalls[0], cst.FunctionDef):
            inner = smalls[0]
            if inner.name.value == returned.value and _wrapper_passes(inner, fn):
                found.add(statement.name.value)
    return frozenset(found)


def _docstring_expr(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Expr) and isinstance(
        node.value, cst.SimpleString | cst.ConcatenatedString
    )


def _wrapper_passes(inner: cst.FunctionDef, fn: str) -> bool:
    """`@functools.wraps(fn)` on `inner`, and every return of it is `fn(...)`."""
    if len(inner.decorators) != 1:
        return False
    wraps = inner.decorators[0].decorator
    if not (
        isinstance(wraps, cst.Call)
        and (dotted(wraps.func) or "").rpartition(".")[2] == "wraps"
        and len(wraps.args) == 1
        and isinstance(wraps.args[0].value, cst.Name)
        and wraps.args[0].value.value == fn
    ):
        return False
    scan = _Scan.of(inner, yields_possible=True)
    if scan.generator or not scan.returns or not _suite_ends(inner.body):
        return False
    for node, _ in scan.returns:
        value = node.value
        if isinstance(value, cst.Await):
            value = value.expression
        if not (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value == fn
        ):
            return False
    return True


def _has_yield(root: cst.CSTNode) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.Yield:
            return True
        if type(node) not in _SCOPE_TYPES:
            stack += _children(node)
    return False


class ToolReturns:
    """One migration plan per module; `run()` may be called for module after module."""

    def __init__(self, config: Config, cross: CrossFile | None = None) -> None:
        self.config = config
        self.cross = cross or CrossFile()
        self.reset("", None)

    def reset(self, filename: str, source: str | None) -> None:
        self.filename = filename
        self.source = source  # the module's text, when the caller has it (saves a codegen)
        self.report = ToolReturnsReport()
        self.warnings: list[str] = []
        self._targets: dict[cst.FunctionDef, _Method] = {}
        self._wrap: dict[cst.Return, bool] = {}
        self._kinds: dict[int, str] = {}
        self._path: set[int] = set()  # ids of the statements and blocks above a target
        self._ref = ""
        self._marked: set[cst.Return] = set()  # errors by their text (`error-markers`)
        self._bases: dict[cst.ClassDef, tuple[int, ClassShape]] = {}  # index -1: put first
        self._adapters: dict[str, ResultRef] = {}  # adapter dotted name -> how to spell it
        self._local_import: set[cst.FunctionDef] = set()
        self._passing: frozenset[str] = frozenset()  # this module's pass-through decorators
        # per tool method, the names its own and enclosing (non-module) scopes bind
        self._locals: dict[cst.FunctionDef, frozenset[str]] = {}
        self._names = ModuleNames(None, False)
        self._factories: list[tuple[cst.Call, FunctionShape]] = []
        self._factory_of: dict[cst.Call, cst.FunctionDef] = {}

    def run(self, tree: cst.Module, filename: str = "", source: str | None = None) -> cst.Module:
        self.reset(filename, source)
        return self.transform(tree)

    # -- planning --------------------------------------------------------------------------

    def transform(self, tree: cst.Module) -> cst.Module:
        config = self.config
        filename = self.filename or ""
        path = Path(filename) if filename else None
        module = module_name(path, config) if path is not None else None
        names = ModuleNames.of(tree, module, path is not None and path.name == "__init__.py")
        self._names = names
        classes = list(_classes(tree.body, ""))
        self._plan(tree, names, classes, config)
        if not self._targets:
            return tree
        wraps = bool(self._wrap)
        taken = frozenset().union(*(self._locals.get(n, ()) for n in self._targets))
        ref = _result_reference(names, config.result_classes[0], runtime=wraps, taken=taken)
        self._ref = ref.expression
        adapters = {e.shape.adapter for e in self._targets.values() if e.shape is not None}
        for adapter in sorted(adapters):
            self._adapters[adapter] = adapter_reference(names, adapter)
        _mark_path(tree, self._targets, self._path)
        tree = _Rewriter(self).rewrite(tree)
        swaps: dict[cst.Call, cst.Attribute] = {}
        for call, shape in self._factories:
            if self._targets.get(self._factory_of[call]) is None:
                continue  # its function was skipped: the call stays the framework's
            factory = _dotted_expr(self._adapters[shape.adapter].expression)
            assert isinstance(call.func, cst.Attribute)
            swaps[call] = call.func.with_changes(value=factory)
        if swaps:
            tree = tree.visit(_SwapCalls(swaps))
        added = [r.add_import for r in (ref, *self._adapters.values()) if r.add_import]
        return insert_imports(tree, added, names.module) if added else tree

    def _plan(
        self, tree: cst.Module, names: ModuleNames, classes: list[_Class], config: Config
    ) -> None:
        local = {c.node.name.value: c for c in classes if c.top_level}
        module = names.module
        results = frozenset(config.result_classes)
        self._passing = _passing_decorators(tree.body)
        shapes = shapes_for(config.presets)
        generic = frozenset(config.tool_methods)
        methods = generic | frozenset(shapes.methods)
        memo: dict[tuple[frozenset[str], str], bool] = {}

        def derives(cls: _Class, bases: frozenset[str], seen: frozenset[str] = frozenset()) -> bool:
            key = (bases, cls.qualname)
            if key in memo:
                return memo[key]
            own = f"{module}.{cls.qualname}" if module else cls.qualname
            verdict = own in bases
            for base in _base_exprs(cls.node):
                if verdict:
                    break
                target = names.resolve(base, local)
                verdict = target in bases
                name = base.value if isinstance(base, cst.Name) else None
                if not verdict and name in local and name not in seen and name != cls.qualname:
                    verdict = derives(local[name], bases, seen | {cls.qualname})
                elif not verdict and target is not None and name not in local:
                    verdict = self.cross.derives(target, bases)
            memo[key] = verdict
            return verdict

        tool_bases = frozenset(config.tool_bases)
        planned: list[_Method] = []
        unlisted: list[tuple[_Class, str]] = []  # classes whose tool list is not literal
        for cls in classes:
            wanted: dict[str, ClassShape | None] = {}
            if generic and (not tool_bases or derives(cls, tool_bases)):
                wanted = dict.fromkeys(generic)
            for shape in shapes.classes:
                if derives(cls, shape.bases):
                    wanted.update(dict.fromkeys(shape.methods, shape))
                    if shape.methods_from:
                        listed, unknown = _listed_methods(cls, local, names, shape)
                        if unknown:
                            unlisted.append((cls, unknown))
                        wanted.update(dict.fromkeys(listed, shape))
                        methods |= frozenset(listed)
            if not wanted:
                continue
            for statement in cls.node.body.body:
                if not isinstance(statement, cst.FunctionDef):
                    continue
                name = statement.name.value
                if name not in wanted:
                    continue
                entry = _Method(statement, cls, shape=wanted[name])
                cls.methods.setdefault(name, entry)
                planned.append(entry)
                self._judge(entry, names, local, results)
        for entry in planned:
            assert entry.cls is not None
            why = self.cross.blocked.get(_dotted_name(module, entry.cls.qualname))
            if why and entry.status == "migrate":
                entry.status, entry.reason = "skip", why
        _hold_families(planned, self.cross, module, self.filename or "<unknown>")
        found = _function_tools(tree, names, shapes.functions)
        # `@mcp.tool()` and `@agent.tool` hand the function back: a direct call of it in
        # this module would get what the adapter returns.
        kept = [f for f, shape, _, _ in found if shape.wire == "under"]
        called = _references(tree, kept) if kept else {}
        for function, fshape, index, reason in found:
            entry = _Method(function, None, shape=fshape, decorator=index)
            planned.append(entry)
            name = function.name.value
            if not reason and fshape.wire == "under" and called.get(function):
                reason = (
                    f"`{name}` is also used in this module, where it would get "
                    "what the adapter returns"
                )
            if reason:
                entry.status, entry.reason = "skip", reason
            else:
                self._judge(entry, names, local, results)
        if any(f.factories for f in shapes.functions):
            for function, fshape, calls, reason in _factory_tools(tree, names, shapes.functions):
                entry = _Method(function, None, shape=fshape)
                planned.append(entry)
                for call in calls if fshape.wire == "factory" else ():
                    self._factories.append((call, fshape))
                    self._factory_of[call] = function
                if reason:
                    entry.status, entry.reason = "skip", reason
                else:
                    self._judge(entry, names, local, results)
        _used_as_str(planned, classes)
        if module and self.cross.classes:
            for cls, use in _inherited_str_uses(classes, local, frozenset(shapes.methods)):
                self.report.kept.setdefault(
                    _dotted_name(module, cls.qualname),
                    f"{cls.qualname} uses the `str` of the inherited `{use}`",
                )
        self._scope_names(tree, planned, names)
        self._settle(planned, local, names, results, methods)
        wanted_names = methods | {e.node.name.value for e in planned if e.cls is None}
        lines = self._lines(tree, planned, wanted_names)
        while _hold_in_module(planned, local, names, module, self.filename or "<unknown>", lines):
            self._settle(planned, local, names, results, methods)
        self._wire(planned, local, names)
        path = self.filename or "<unknown>"
        if unlisted:
            wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
            positions = wrapper.resolve(PositionProvider)
            for cls, unknown in unlisted:
                line = positions[cls.node].start.line if cls.node in positions else 0
                attribute = unknown.partition("`")[2].partition("`")[0]
                event = MethodEvent(path, line, cls.qualname, attribute, unknown)
                self.report.skipped.append(event)
                self.warnings.append(f"line {line}: skipped {event.name}: {unknown}")
                if module:  # its tools are unknown: a base of another module stays as it is
                    dotted = _dotted_name(module, cls.qualname)
                    self.report.kept.setdefault(dotted, unknown)
        for entry in planned:
            line = lines.get(entry.node, 0)
            event = MethodEvent(path, line, entry.owner, entry.node.name.value, entry.reason)
            if entry.cls is not None and module:
                key = f"{_dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
                self.report.results[key] = entry.status != "skip"
                if (
                    entry.status == "skip"
                    and isinstance(entry.shape, ClassShape)
                    and not entry.pending
                ):
                    self.report.kept.setdefault(
                        key.rpartition(".")[0], f"{event.name}: {entry.reason}"
                    )
                if entry.status == "migrate" and isinstance(entry.shape, ClassShape):
                    self.report.wired.add(key.rpartition(".")[0])
            _record_member(self.report, entry, event, self.cross, module)
            if entry.status == "skip":
                self.report.skipped.append(event)
                self.warnings.append(f"line {line}: skipped {event.name}: {entry.reason}")
                continue
            if entry.cls is not None:
                dotted_class = _dotted_name(module, entry.cls.qualname)
                self.report.known_tools.add(dotted_class)
            if entry.status == "migrate":
                self.report.migrated.append(event)
                self._targets[entry.node] = entry
                if entry.shape is not None and entry.shape.local_import:
                    self._local_import.add(entry.node)

    def _judge(
        self,
        entry: _Method,
        names: ModuleNames,
        local: dict[str, _Class],
        results: frozenset[str],
    ) -> None:
        annotation = entry.node.returns
        if annotation is None:
            entry.status, entry.reason = "skip", "has no return annotation"
            return
        target = _annotation_target(annotation.annotation, names, local)
        if target in results:
            entry.status = "already"
            return
        if target not in _STR or "str" in names.other:
            code = cst.Module([]).code_for_node(annotation.annotation)
            entry.status, entry.reason = "skip", f"annotated `-> {code}`, not `-> str`"
            return
        text = self.source
        scan = _Scan.of(entry.node, yields_possible=text is None or "yield" in text)
        if scan.generator:
            entry.status, entry.reason = "skip", "is a generator (`yield`)"
        elif scan.bare:
            entry.status, entry.reason = "skip", scan.bare
        else:
            why = scan.none_path(entry.node)
            decorator = "" if why else self._unknown_decorator(entry, names)
            if decorator:
                why = f"decorated by `{decorator}`, which may use the returned str"
            if why:
                entry.status, entry.reason = "skip", why
        entry.returns = scan.returns

    def _scope_names(self, tree: cst.Module, planned: list[_Method], names: ModuleNames) -> None:
        """What each method to migrate binds in its own scope and the scopes around it
        (a parameter, a loop variable, a lazy import named `ToolResult`): the written
        `ToolResult.text(...)` and annotation must not name one of these."""
        entries = [e for e in planned if e.status == "migrate"]
        if not entries:
            return
        result = self.config.result_classes[0]
        module, _, name = result.rpartition(".")
        heads = {name, f"_{name}", module.partition(".")[0]}
        heads.update(
            local
            for local, bindings in names.bindings.items()
            if any(b.target.partition(".")[0] == module.partition(".")[0] for b in bindings)
        )
        text = self.source
        if text is not None and not re.search(
            r"\b(?:" + "|".join(re.escape(h) for h in sorted(heads)) + r")\b", text
        ):
            return  # none of the names can be bound anywhere: no need for scopes
        from libcst.metadata import GlobalScope, ScopeProvider

        scopes = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ScopeProvider)
        for entry in entries:
            scope = scopes.get(entry.node.body)
            bound: set[str] = set()
            while scope is not None and not isinstance(scope, GlobalScope):
                bound.update(
                    a.name
                    for a in scope.assignments
                    if not _imports(getattr(a, "node", None), a.name, result)
                )
                scope = scope.parent
            if bound:
                self._locals[entry.node] = frozenset(bound)

    def _unknown_decorator(self, entry: _Method, names: ModuleNames) -> str:
        """The first decorator that gets the method's return value and is not known to
        hand it back unchanged; a function tool's adapter goes right under the framework's
        decorator, so only the ones below that count."""
        for decorator in entry.node.decorators[entry.decorator + 1 :]:
            expr = decorator.decorator
            called = expr.func if isinstance(expr, cst.Call) else expr
            name = dotted(called)
            if name is None:
                return "an expression"
            target = names.resolve(called)
            if name in names.other or name.partition(".")[0] in names.other:
                if name not in self._passing:
                    return name
            elif target not in _PASS_THROUGH:
                return name
        return ""

    def _settle(
        self,
        planned: list[_Method],
        local: dict[str, _Class],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> None:
        """Decide which returns are already results; repeat while skips change the answer."""
        markers = tuple(self.config.error_markers)
        changed = True
        while changed:
            changed = False
            self._wrap.clear()
            self._kinds.clear()
            self._marked.clear()
            for entry in planned:
                if entry.status != "migrate":
                    continue
                for node, in_except in entry.returns:
                    assert node.value is not None
                    kind = self._classify(node.value, entry, local, names, results, methods)
                    if kind.startswith("unknown:"):
                        entry.pending = kind.startswith(_PENDING)
                        entry.status, entry.reason = "skip", kind.removeprefix(_PENDING)[8:]
                        changed = True
                        break
                    if kind == "plain" and not in_except and _marked(node.value, markers):
                        self._marked.add(node)
                        in_except = True
                    if kind != "result":
                        self._wrap[node] = in_except
            changed = _guard_wiring(planned, local) or changed
        self.report.text = sum(1 for e in self._wrap.values() if not e)
        self.report.error = sum(1 for e in self._wrap.values() if e)
        self.report.marked = len(self._marked)

    def _wire(self, planned: list[_Method], local: dict[str, _Class], names: ModuleNames) -> None:
        """Where each migrated class gets its adapter base: the framework's place, or first."""
        wired: dict[str, ClassShape] = {}
        for entry in planned:
            if entry.status == "migrate" and isinstance(entry.shape, ClassShape):
                assert entry.cls is not None
                wired.setdefault(entry.cls.qualname, entry.shape)
        for qualname, shape in wired.items():
            cls = next(e.cls for e in planned if e.cls is not None and e.cls.qualname == qualname)
            ancestors, _ = _lineage(cls, local, skip_own=True)
            if any(wired.get(a.qualname) == shape for a in ancestors):
                continue  # it inherits the adapter from a class wired in this run
            if any(a in self.cross.wired for a in self._external_ancestors(cls, local, names)):
                continue  # ... from a class of another module wired in this run
            index = -1
            for position, arg in enumerate(cls.node.bases):
                if arg.keyword is None and not arg.star:
                    if names.resolve(arg.value, local) in shape.bases:
                        index = position
                        break
            self._bases[cls.node] = (index, shape)

    def _classify(
        self,
        value: cst.BaseExpression,
        entry: _Method,
        local: dict[str, _Class],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> str:
        """`result`, `plain`, `mixed` (a ternary of both) or `unknown:<reason>`."""
        kind = self._kind(value, entry, local, names, results, methods)
        self._kinds[id(value)] = kind
        return kind

    def _kind(
        self,
        value: cst.BaseExpression,
        entry: _Method,
        local: dict[str, _Class],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> str:
        if isinstance(value, cst.IfExp):
            kinds = {
                self._classify(v, entry, local, names, results, methods)
                for v in (value.body, value.orelse)
            }
            unknown = sorted(k for k in kinds if k.startswith("unknown:"))
            if unknown:
                return unknown[0]
            return kinds.pop() if len(kinds) == 1 else "mixed"
        if isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call):
            return "plain"
        func = value.func
        # A local of the result class's name is not the module's result class.
        shadowed = (dotted(func) or "").partition(".")[0] in self._locals.get(entry.node, ())
        if isinstance(func, cst.Attribute):
            owner = names.resolve(func.value, local)
            if owner in results and func.attr.value in ("text", "error") and not shadowed:
                return "result"
            called = func.attr.value
            cls = entry.cls
            if called in methods and cls is not None and _is_self(func.value, entry):
                return self._method_kind(cls, called, local, skip_own=False)
            if called in methods and cls is not None and _is_super(func.value):
                return self._method_kind(cls, called, local, skip_own=True)
            if called in methods and _subscripted(func.value):
                return (
                    f"unknown:returns `...[...].{called}(...)`, a tool reached through a dict "
                    "of tools: cannot tell whether it returns a ToolResult after the migration"
                )
        elif names.resolve(func, local) in results and not shadowed:
            return "result"
        return "plain"

    def _method_kind(self, cls: _Class, name: str, local: dict[str, _Class], skip_own: bool) -> str:
        owners, complete = _lineage(cls, local, skip_own)
        for owner in owners:
            found = owner.methods.get(name)
            if found is not None:
                return "result" if found.status in ("migrate", "already") else "plain"
            if any(
                isinstance(s, cst.FunctionDef) and s.name.value == name
                for s in owner.node.body.body
            ):
                return "plain"  # defined in a class that is not a tool: it returns str
        if complete:
            return "plain"
        pending = False
        for ancestor in self._external_ancestors(cls, local, self._names):
            known = self.cross.results.get(f"{ancestor}.{name}")
            if known is not None:
                return "result" if known else "plain"
            pending = pending or ancestor in self.cross.classes
        via = "super()" if skip_own else "self"
        return (
            f"{_PENDING if pending else ''}unknown:returns `{via}.{name}(...)`, "
            "a tool method not defined in this module: "
            "cannot tell whether it returns a ToolResult after the migration"
        )

    def _external_ancestors(
        self, cls: _Class, local: dict[str, _Class], names: ModuleNames
    ) -> Iterator[str]:
        """The ancestors of `cls` in other modules, nearest first, as the index knows them."""
        lineage, _ = _lineage(cls, local, skip_own=False)
        for owner in lineage:
            for base in _base_exprs(owner.node):
                if isinstance(base, cst.Name) and base.value in local:
                    continue
                target = names.resolve(base, local)
                if target is not None:
                    yield target
                    yield from self.cross.ancestors(target)

    def _lines(
        self, tree: cst.Module, planned: list[_Method], methods: Iterable[str]
    ) -> dict[cst.FunctionDef, int]:
        methods = frozenset(methods)
        if not planned:
            return {}
        text = self.source if self.source is not None else tree.code
        by_name = def_lines(text, methods)
        defs: dict[str, list[cst.FunctionDef]] = {}
        for node in _functions(tree.body):
            if node.name.value in methods:
                defs.setdefault(node.name.value, []).append(node)
        if all(len(by_name.get(n, [])) == len(d) for n, d in defs.items()):
            return {node: by_name[n][i] for n, d in defs.items() for i, node in enumerate(d)}
        # A `def` inside a string fooled the line scan: pay for real positions.
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
        return {e.node: positions[e.node].start.line for e in planned if e.node in positions}


class _Rewriter:
    """Applies a plan, rebuilding only the nodes on the way down to what changes."""

    def __init__(self, plan: ToolReturns) -> None:
        self.plan = plan
        self.annotation = _dotted_expr(plan._ref)

    def rewrite(self, node: _N, inside: bool = False) -> _N:
        plan = self.plan
        if not inside and id(node) not in plan._path:
            return node
        inside = inside or (isinstance(node, cst.FunctionDef) and node in plan._targets)
        changes: dict[str, object] = {}
        for name in _field_names(node):
            value = getattr(node, name)
            if isinstance(value, tuple | list):
                if value:
                    items = [
                        self.rewrite(v, inside) if _kind(type(v)) == _STATEMENT else v
                        for v in value
                    ]
                    if any(a is not b for a, b in zip(items, value, strict=True)):
                        changes[name] = items
            elif _kind(type(value)) == _STATEMENT:
                new = self.rewrite(value, inside)
                if new is not value:
                    changes[name] = new
        updated = node.with_changes(**changes) if changes else node
        if isinstance(node, cst.Return) and isinstance(updated, cst.Return):
            return cast(_N, self.leave_return(node, updated))
        if isinstance(node, cst.FunctionDef) and node in plan._targets:
            assert isinstance(updated, cst.FunctionDef) and updated.returns is not None
            returns = updated.returns.with_changes(annotation=self.annotation)
            function: cst.FunctionDef = cst.ensure_type(updated, cst.FunctionDef).with_changes(
                returns=returns
            )
            entry = plan._targets[node]
            if isinstance(entry.shape, FunctionShape) and entry.decorator >= 0:
                function = self.decorate(function, entry.shape, entry.decorator)
            elif isinstance(entry.shape, FunctionShape) and entry.shape.wire == "under":
                # Handed to a method (`mcp.add_tool(f)`): the call stays, the adapter goes
                # right above the `def`, under every decorator (each was judged to pass).
                function = self.decorate(function, entry.shape, len(function.decorators) - 1)
            if node in plan._local_import:
                function = self.import_inside(function)
            return cast(_N, function)
        if isinstance(node, cst.ClassDef) and node in plan._bases:
            assert isinstance(updated, cst.ClassDef)
            index, shape = plan._bases[node]
            adapter = _dotted_expr(plan._adapters[shape.adapter].expression)
            bases = list(updated.bases)
            if index < 0:
                bases.insert(0, cst.Arg(adapter))
            else:
                bases[index] = bases[index].with_changes(value=adapter)
            return cast(_N, updated.with_changes(bases=bases))
        return updated

    def decorate(self, node: cst.FunctionDef, shape: FunctionShape, index: int) -> cst.FunctionDef:
        """Wire a function tool to its adapter, as the preset says."""
        adapter = _dotted_expr(self.plan._adapters[shape.adapter].expression)
        decorators = list(node.decorators)
        if shape.wire == "replace":
            found = decorators[index]
            value = found.decorator
            new = value.with_changes(func=adapter) if isinstance(value, cst.Call) else adapter
            decorators[index] = found.with_changes(decorator=new)
        else:
            decorators.insert(index + 1, cst.Decorator(adapter))
        return node.with_changes(decorators=decorators)

    def import_inside(self, node: cst.FunctionDef) -> cst.FunctionDef:
        """`from toolwire import ToolResult` as the body's first statement (smolagents)."""
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            return node
        module, _, name = self.plan.config.result_classes[0].rpartition(".")
        ref = self.plan._ref
        if "." in ref:
            return node  # spelled through a module alias: that import is the module's own
        add = (module, name if ref == name else f"{name} as {ref}")
        statements = [
            s
            for s in body.body
            if isinstance(s, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        ]
        if len(statements) != len(body.body):
            return node
        inner = list(insert_imports(cst.Module(body=statements), [add], None, indented=True).body)
        # Right under a function's docstring, an import takes no blank line (a module's does).
        added = inner[1] if len(inner) > 1 and _is_docstring(inner[0]) else None
        if isinstance(added, cst.SimpleStatementLine) and added not in statements:
            inner[1] = added.with_changes(leading_lines=[])
        return node.with_changes(body=body.with_changes(body=inner))

    def leave_return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        in_except = self.plan._wrap.get(original_node)
        if in_except is None or updated_node.value is None:
            return updated_node
        factory = "error" if in_except else "text"
        changes: dict[str, object] = {
            "value": self.wrapped(original_node.value, updated_node.value, factory)
        }
        space = updated_node.whitespace_after_return
        if isinstance(space, cst.SimpleWhitespace) and not space.value:
            changes["whitespace_after_return"] = cst.SimpleWhitespace(" ")  # `return(x)`
        return updated_node.with_changes(**changes)

    def wrapped(
        self, original: cst.BaseExpression | None, value: cst.BaseExpression, factory: str
    ) -> cst.BaseExpression:
        kind = self.plan._kinds.get(id(original))
        if kind == "result":
            return value
        if kind == "mixed" and isinstance(value, cst.IfExp) and isinstance(original, cst.IfExp):
            # Wrap only the branches that are not results already.
            return value.with_changes(
                body=self.wrapped(original.body, value.body, factory),
                orelse=self.wrapped(original.orelse, value.orelse, factory),
            )
        return _call(self.plan._ref, factory, value)


def _dotted_expr(name: str) -> cst.Name | cst.Attribute:
    head, *rest = name.split(".")
    node: cst.Name | cst.Attribute = cst.Name(head)
    for part in rest:
        node = cst.Attribute(node, cst.Name(part))
    return node


def _call(ref: str, factory: str, value: cst.BaseExpression) -> cst.Call:
    """`ref.factory(value)`, whose one argument is exactly `value`.

    The outer parentheses of `return (x)` become the call's (comments and all), except
    when they are what makes `value` one tuple: `return (a, b)` keeps them, so it becomes
    `text((a, b))`, never `text(a, b)`.
    """
    func = _dotted_expr(f"{ref}.{factory}")
    if isinstance(value, cst.Tuple) and len(value.lpar) < 2:
        if value.lpar:
            return cst.Call(func, [cst.Arg(value)])
        return cst.Call(
            func, [cst.Arg(value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))]
        )
    if value.lpar and value.rpar:
        # `return (\n  x  # why\n)`: the outer parentheses become the call's, comments and all.
        lpar, rpar = value.lpar[0], value.rpar[-1]
        inner = value.with_changes(lpar=value.lpar[1:], rpar=value.rpar[:-1])
        return cst.Call(
            func,
            [cst.Arg(inner, whitespace_after_arg=rpar.whitespace_before)],
            whitespace_before_args=lpar.whitespace_after,
        )
    return cst.Call(func, [cst.Arg(value)])


def _annotation_target(
    node: cst.BaseExpression, names: ModuleNames, local: dict[str, _Class]
) -> str | None:
    if isinstance(node, cst.SimpleString) and node.prefix == "":
        try:
            node = cst.parse_expression(node.evaluated_value)  # type: ignore[arg-type]
        except (cst.ParserSyntaxError, TypeError):
            return None
    return names.resolve(node, local)


def _listed_methods(
    cls: _Class, local: dict[str, _Class], names: ModuleNames, shape: ClassShape
) -> tuple[tuple[str, ...], str]:
    """The tool methods a class lists in `shape.methods_from`, or why they are not known.

    The list is read as LlamaIndex's `BaseToolSpec.to_tool_list` reads `spec_functions`: a
    list or tuple of names and of (sync, async) pairs of names; only literals are trusted.
    """
    attribute = shape.methods_from
    lineage, _ = _lineage(cls, local, skip_own=False)
    for owner in lineage:
        values = [
            small.value
            for statement in owner.node.body.body
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
            if isinstance(small, cst.Assign | cst.AnnAssign | cst.AugAssign)
            and attribute in _assigned_names(small)
        ]
        if not values:
            continue
        if len(values) > 1:
            return (), f"`{attribute}` is assigned more than once in {owner.qualname}"
        listed = _literal_names(values[0])
        if listed is None:
            return (), f"`{attribute}` of {owner.qualname} is not a literal list of names"
        return listed, ""
    for owner in lineage:
        for base in _base_exprs(owner.node):
            if isinstance(base, cst.Name) and base.value in local:
                continue
            if names.resolve(base, local) not in shape.bases:
                return (), f"`{attribute}` is not set in this module (it comes from a base)"
    return (), ""


def _assigned_names(small: cst.Assign | cst.AnnAssign | cst.AugAssign) -> set[str]:
    if isinstance(small, cst.Assign):
        targets = [t.target for t in small.targets]
    else:
        targets = [small.target]
    return {t.value for t in targets if isinstance(t, cst.Name)}


def _literal_names(value: cst.BaseExpression | None) -> tuple[str, ...] | None:
    if not isinstance(value, cst.List | cst.Tuple):
        return None
    found: list[str] = []
    for element in value.elements:
        item = element.value
        if isinstance(element, cst.StarredElement):
            return None
        parts = [e.value for e in item.elements] if isinstance(item, cst.Tuple) else [item]
        if isinstance(item, cst.Tuple) and len(parts) != 2:
            return None
        for part in parts:
            text = part.evaluated_value if isinstance(part, cst.SimpleString) else None
            if not isinstance(text, str) or not text.isidentifier():
                return None
            found.append(text)
    return tuple(dict.fromkeys(found))


def _base_exprs(node: cst.ClassDef) -> Iterator[cst.BaseExpression]:
    for arg in node.bases:
        if arg.keyword is None and arg.star == "":
            value = arg.value
            yield value.value if isinstance(value, cst.Subscript) else value


def _is_self(receiver: cst.BaseExpression, entry: _Method) -> bool:
    params = entry.node.params
    positional = [*params.posonly_params, *params.params]
    return (
        bool(positional)
        and isinstance(receiver, cst.Name)
        and receiver.value == positional[0].name.value
    )


def _is_super(receiver: cst.BaseExpression) -> bool:
    return (
        isinstance(receiver, cst.Call)
        and isinstance(receiver.func, cst.Name)
        and receiver.func.value == "super"
    )


def _lineage(cls: _Class, local: dict[str, _Class], skip_own: bool) -> tuple[list[_Class], bool]:
    """`cls` and its same-module ancestors, breadth first; False if some live elsewhere."""
    seen: set[str] = set()
    order: list[_Class] = []
    complete = True
    queue = [cls]
    while queue:
        current = queue.pop(0)
        if current.qualname in seen:
            continue
        seen.add(current.qualname)
        order.append(current)
        for base in _base_exprs(current.node):
            if isinstance(base, cst.Name) and base.value in local:
                queue.append(local[base.value])
            elif not (isinstance(base, cst.Name) and base.value == "object"):
                complete = False
    return (order[1:] if skip_own else order), complete


def _mark_path(
    node: cst.CSTNode, targets: Mapping[cst.FunctionDef, object], path: set[int]
) -> bool:
    """Add the ids of `node` and of everything between it and a target; True if it holds one."""
    if isinstance(node, cst.FunctionDef) and node in targets:
        path.add(id(node))
        return True
    if isinstance(node, cst.SimpleStatementLine | cst.BaseSmallStatement):
        return False
    found = False
    for child in _children(node, statements=True):
        found = _mark_path(child, targets, path) or found
    if found:
        path.add(id(node))
    return found


def _block(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else ()


def _blocks(node: cst.CSTNode) -> Iterator[Sequence[cst.BaseStatement]]:
    """The statement blocks directly inside a compound statement, in source order."""
    if isinstance(node, cst.If):
        yield _block(node.body)
        orelse = node.orelse
        if isinstance(orelse, cst.If):
            yield from _blocks(orelse)
        elif orelse is not None:
            yield _block(orelse.body)
        return
    if isinstance(node, cst.Try | cst.TryStar):
        yield _block(node.body)
        for handler in node.handlers:
            yield _block(handler.body)
        if node.orelse is not None:
            yield _block(node.orelse.body)
        if node.finalbody is not None:
            yield _block(node.finalbody.body)
        return
    if isinstance(node, cst.Match):
        for case in node.cases:
            yield _block(case.body)
        return
    body = getattr(node, "body", None)
    if isinstance(body, cst.BaseSuite):
        yield _block(body)
    orelse = getattr(node, "orelse", None)
    if isinstance(orelse, cst.Else):
        yield _block(orelse.body)


def _statements(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    for statement in body:
        yield statement
        if isinstance(statement, cst.BaseCompoundStatement):
            for block in _blocks(statement):
                yield from _statements(block)


def _functions(body: Sequence[cst.BaseStatement]) -> Iterator[cst.FunctionDef]:
    for statement in _statements(body):
        if isinstance(statement, cst.FunctionDef):
            yield statement


def _classes(body: Sequence[cst.BaseStatement], prefix: str, top: bool = True) -> Iterator[_Class]:
    for statement in body:
        if isinstance(statement, cst.ClassDef):
            qualname = f"{prefix}{statement.name.value}"
            yield _Class(statement, qualname, top)
            if isinstance(statement.body, cst.IndentedBlock):
                yield from _classes(statement.body.body, f"{qualname}.", False)
        elif isinstance(statement, cst.FunctionDef):
            if isinstance(statement.body, cst.IndentedBlock):
                yield from _classes(
                    statement.body.body, f"{prefix}{statement.name.value}.<locals>.", False
                )
        elif isinstance(statement, cst.BaseCompoundStatement):
            for block in _blocks(statement):
                yield from _classes(block, prefix, top)


def _subscripted(receiver: cst.BaseExpression) -> bool:
    """`tools[name]`, `self.tools[name]`: a tool picked out of a collection."""
    while isinstance(receiver, cst.Attribute | cst.Call):
        if isinstance(receiver, cst.Call):
            receiver = receiver.func
        else:
            receiver = receiver.value
        if isinstance(receiver, cst.Subscript):
            return True
    return isinstance(receiver, cst.Subscript)


def _leading_text(value: cst.BaseExpression) -> str | None:
    """The literal text a string expression starts with (an f-string's first literal part)."""
    if isinstance(value, cst.SimpleString):
        evaluated = value.evaluated_value
        return evaluated if isinstance(evaluated, str) else None
    if isinstance(value, cst.ConcatenatedString):
        return _leading_text(value.left)
    if isinstance(value, cst.FormattedString):
        first = value.parts[0] if value.parts else None
        return first.value if isinstance(first, cst.FormattedStringText) else None
    return None


def _marked(value: cst.BaseExpression, markers: Sequence[str]) -> bool:
    """A returned string that starts with an error marker (a heuristic: `error-markers`)."""
    text = _leading_text(value)
    if not text:
        return False
    text = text.lstrip()
    for marker in markers:
        if text.startswith(marker):
            rest = text[len(marker) :]
            if not rest or not (rest[0].isalnum() or rest[0] == "_"):
                return True
    return False


def _hold_families(planned: list[_Method], cross: CrossFile, module: str | None, path: str) -> None:
    """Skip a class tool method whose family another file (or round) left as it is."""
    if not cross.held or not module:
        return
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            key = f"{_dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
            root, why = cross.held.get(key, (None, ""))
            if root is not None and root != f"{path}:{key}":  # the skip itself keeps its reason
                entry.status, entry.reason = "skip", why


def _hold_in_module(
    planned: list[_Method],
    local: dict[str, _Class],
    names: ModuleNames,
    module: str | None,
    path: str,
    lines: Mapping[cst.FunctionDef, int],
) -> bool:
    """The family rule inside one module (the run applies it across files); True if it
    skipped a method."""
    members = [
        Member(
            f"{_dotted_name(module, e.cls.qualname)}.{e.node.name.value}",
            path,
            lines.get(e.node, 0),
            e.status,
            e.reason,
            e.status == "skip" and not e.pending and not e.reason.startswith(FAMILY),
        )
        for e in planned
        if e.cls is not None and e.shape is None
    ]
    if not any(m.own for m in members) or not any(m.status == "migrate" for m in members):
        return False
    index = {
        _dotted_name(module, c.qualname): tuple(
            names.resolve(b, local) or "" for b in _base_exprs(c.node)
        )
        for c in local.values()
    }
    held = family_holds(members, index)
    changed = False
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            key = f"{_dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
            if key in held:
                entry.status, entry.reason = "skip", held[key][1]
                changed = True
    return changed


def _record_member(
    report: ToolReturnsReport,
    entry: _Method,
    event: MethodEvent,
    cross: CrossFile,
    module: str | None,
) -> None:
    if entry.cls is None or entry.shape is not None or not module:
        return  # a framework calls its tools through an adapter that takes both kinds
    key = f"{_dotted_name(module, entry.cls.qualname)}.{entry.node.name.value}"
    own = entry.status == "skip" and not entry.pending and not entry.reason.startswith(FAMILY)
    report.members.append(Member(key, event.path, event.line, entry.status, entry.reason, own))


def _guard_wiring(planned: list[_Method], local: dict[str, _Class]) -> bool:
    """An adapter base wraps every method it names in the class and its subclasses.

    So a class is wired only when none of those methods, in it or in a subclass of this
    module, is left unmigrated; otherwise its methods are skipped too. True if any was.
    """
    skipped: dict[tuple[str, ClassShape], list[_Method]] = {}
    for entry in planned:
        if entry.cls is not None and isinstance(entry.shape, ClassShape):
            if entry.status == "skip":
                skipped.setdefault((entry.cls.qualname, entry.shape), []).append(entry)
    if not skipped:
        return False
    changed = False
    for entry in planned:
        if entry.status != "migrate" or entry.cls is None:
            continue
        shape = entry.shape
        if not isinstance(shape, ClassShape):
            continue
        for cls in (entry.cls, *_descendants(entry.cls, local)):
            blocking = skipped.get((cls.qualname, shape))
            if blocking:
                other = blocking[0]
                entry.status = "skip"
                entry.reason = (
                    f"`{other.owner}.{other.node.name.value}` is not migrated, and the "
                    "adapter base would wrap it too"
                )
                changed = True
                break
    return changed


def _descendants(cls: _Class, local: dict[str, _Class]) -> list[_Class]:
    found: list[_Class] = []
    for other in local.values():
        if other is cls:
            continue
        ancestors, _ = _lineage(other, local, skip_own=True)
        if any(a is cls for a in ancestors):
            found.append(other)
    return found


def _used_as_str(planned: list[_Method], classes: list[_Class]) -> None:
    """Skip a tool method whose `str` its own class (or a subclass) uses other than by returning it.

    `first = self._run(q); first.startswith(...)` or `run_in_executor(None, self._run, q)`
    would get a ToolResult after the migration.
    """
    by_class: dict[int, dict[str, list[_Method]]] = {}
    for entry in planned:
        if entry.cls is not None and entry.status == "migrate":
            by_class.setdefault(id(entry.cls.node), {}).setdefault(
                entry.node.name.value, []
            ).append(entry)
    if not by_class:
        return
    entries = {e.node: e for e in planned}
    for cls in classes:
        names: dict[str, list[_Method]] = {}
        for owner in [cls, *_ancestors_in(cls, classes)]:
            for name, found in by_class.get(id(owner.node), {}).items():
                names.setdefault(name, []).extend(found)
        if not names:
            continue
        for statement in cls.node.body.body:
            if not isinstance(statement, cst.FunctionDef):
                continue
            params = [*statement.params.posonly_params, *statement.params.params]
            me = params[0].name.value if params else None
            returned = _returned_calls(statement) if statement in entries else set()
            for use in _attribute_uses(statement.body, me, frozenset(names)):
                if id(use) in returned:
                    continue
                for entry in names[use.attr.value]:
                    if entry.status == "migrate":
                        entry.status = "skip"
                        entry.reason = (
                            f"`{cls.qualname}.{statement.name.value}` uses the `str` it "
                            "returns; after the migration that would be a ToolResult"
                        )


def _ancestors_in(cls: _Class, classes: list[_Class]) -> list[_Class]:
    local = {c.node.name.value: c for c in classes if c.top_level}
    ancestors, _ = _lineage(cls, local, skip_own=True)
    return ancestors


def _returned_calls(func: cst.FunctionDef) -> set[int]:
    """ids of `self.m` in `return self.m(...)` (also awaited or in a ternary branch)."""
    found: set[int] = set()
    for node, _ in _Scan.of(func, yields_possible=False).returns:
        stack: list[cst.BaseExpression | None] = [node.value]
        while stack:
            value = stack.pop()
            if isinstance(value, cst.IfExp):
                stack += [value.body, value.orelse]
            elif isinstance(value, cst.Await):
                stack.append(value.expression)
            elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
                found.add(id(value.func))
    return found


def _attribute_uses(
    root: cst.CSTNode, me: str | None, names: frozenset[str]
) -> Iterator[cst.Attribute]:
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if type(node) is cst.Attribute and node.attr.value in names:
            receiver = node.value
            if (isinstance(receiver, cst.Name) and receiver.value == me) or _is_super(receiver):
                yield node
        stack += _children(node)


_FunctionTool = tuple[cst.FunctionDef, FunctionShape, int, str]


def _function_tools(
    tree: cst.Module, names: ModuleNames, shapes: Sequence[FunctionShape]
) -> list[_FunctionTool]:
    """The functions a framework decorator makes tools, block by block (module, function bodies).

    `@X.tool()` counts only where X is bound, in that block or an enclosing one, to a call
    of the framework's class (`mcp = FastMCP(...)`) or annotated as one: never by its name.
    """
    if not any(s.decorators or s.attributes for s in shapes):
        return []
    found: list[_FunctionTool] = []
    for statement, bound in _scoped_functions(tree, names):
        match = _tool_decorator(statement, names, shapes, bound) or _unknown_instance(
            statement, names, shapes, bound
        )
        if match is not None:
            found.append((statement, *match))
    return found


def _unknown_instance(
    func: cst.FunctionDef,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
) -> tuple[FunctionShape, int, str] | None:
    """`@X.tool` in a module that imports the framework, where X is not known to be the
    framework's object: skipped with the reason, so that the tool is not missed silently."""
    imported = {b.target.partition(".")[0] for bs in names.bindings.values() for b in bs}
    for index, decorator in enumerate(func.decorators):
        expr = decorator.decorator
        called = expr.func if isinstance(expr, cst.Call) else expr
        if not isinstance(called, cst.Attribute) or not isinstance(called.value, cst.Name):
            continue
        owner = called.value.value
        known = bound.get(owner)
        if known is not None and known.partition(".")[0] not in names.other:
            continue  # bound to a call of something imported: another object's `.tool`
        for shape in shapes:
            roots = {i.partition(".")[0] for i in shape.instances}
            if called.attr.value not in shape.attributes or not roots & imported:
                continue
            kinds = " or ".join(sorted({f"`{i.rpartition('.')[2]}`" for i in shape.instances}))
            if known is not None:
                how = f"it is bound to what `{known}()` returns, which is not followed"
            elif owner in names.bindings and owner not in bound:
                how = f"it is imported from `{names.resolve(called.value)}`"
            else:
                how = "it is not bound to a call of one, or annotated as one, where it is used"
            reason = (
                f"`@{owner}.{called.attr.value}`: `{owner}` is not known to be a {kinds}: {how}"
            )
            return shape, index, reason
    return None


def _scoped_functions(
    tree: cst.Module, names: ModuleNames
) -> Iterator[tuple[cst.FunctionDef, dict[str, str | None]]]:
    """Every function of the module, with the instances bound where it is defined."""
    for body, bound in _scoped_blocks(tree, names):
        for statement in _flat(body):
            if isinstance(statement, cst.FunctionDef):
                yield statement, bound


def _scoped_blocks(
    tree: cst.Module, names: ModuleNames
) -> Iterator[tuple[Sequence[cst.BaseStatement], dict[str, str | None]]]:
    """The module's body and every function's, each with the instances bound there: in
    the block or an enclosing one (`mcp = FastMCP(...)` in `create_server()`), or as a
    parameter of an enclosing function annotated as a class (`def register(mcp: FastMCP)`)."""
    aliases = _class_aliases(tree, names)
    blocks: list[tuple[Sequence[cst.BaseStatement], dict[str, str | None]]] = [(tree.body, {})]
    while blocks:
        body, outer = blocks.pop()
        bound = dict(outer)
        bound.update(_instances(body, names, aliases))
        yield body, bound
        for statement in _flat(body):
            if not isinstance(statement, cst.FunctionDef):
                continue
            if isinstance(statement.body, cst.IndentedBlock):
                inner = dict(bound)
                params = statement.params
                for param in (*params.posonly_params, *params.params, *params.kwonly_params):
                    annotation = param.annotation
                    inner[param.name.value] = (
                        names.resolve(_unsubscripted(annotation.annotation))
                        if annotation is not None
                        else None
                    )
                blocks.append((statement.body.body, inner))


def _unsubscripted(annotation: cst.BaseExpression) -> cst.BaseExpression:
    return annotation.value if isinstance(annotation, cst.Subscript) else annotation  # `Agent[D]`


def _class_aliases(tree: cst.Module, names: ModuleNames) -> dict[str, str]:
    """Module-level names bound only to an imported name (`ServerFactory = FastMCP`, in
    a `try` or an `if` too): what they stand for. Bound to two things: not an alias."""
    found: dict[str, str | None] = {}
    for statement in _flat(tree.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Assign | cst.AnnAssign) or small.value is None:
                continue
            value = small.value
            if isinstance(value, cst.Name) and value.value == "None":
                continue  # the fallback of a failed import: calling it fails anyway
            head = dotted(value) if isinstance(value, cst.Name | cst.Attribute) else None
            target = (
                names.resolve(value) if head and head.partition(".")[0] in names.bindings else None
            )
            targets = (
                [t.target for t in small.targets]
                if isinstance(small, cst.Assign)
                else [small.target]
            )
            for assign in targets:
                for name in _target_names(assign):
                    found[name] = target if found.get(name, target) == target else None
    return {name: target for name, target in found.items() if target is not None}


def _flat(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The statements of a block and of its `if`/`try`/`with` blocks, not of defs or classes."""
    for statement in body:
        yield statement
        if isinstance(statement, cst.BaseCompoundStatement) and not isinstance(
            statement, cst.FunctionDef | cst.ClassDef
        ):
            for block in _blocks(statement):
                yield from _flat(block)


def _instances(
    body: Sequence[cst.BaseStatement], names: ModuleNames, aliases: Mapping[str, str]
) -> dict[str, str | None]:
    """Names bound in this block to a call of a class (`x = Cls(...)`, `x: Cls = ...`),
    through the module's `aliases` of classes (`x = ServerFactory(...)`).

    A name bound twice to different things maps to None.
    """
    bound: dict[str, str | None] = {}

    def bind(name: str, target: str | None) -> None:
        bound[name] = target if bound.get(name, target) == target else None

    for statement in _flat(body):
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            bind(statement.name.value, None)
            continue
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                value = small.value
                target = names.resolve(value.func) if isinstance(value, cst.Call) else None
                if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
                    target = aliases.get(value.func.value, target)
                for assign in small.targets:
                    for name in _target_names(assign.target):
                        bind(name, target)
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                annotation = _unsubscripted(small.annotation.annotation)
                bind(small.target.value, names.resolve(annotation))
    return bound


def _tool_decorator(
    func: cst.FunctionDef,
    names: ModuleNames,
    shapes: Sequence[FunctionShape],
    bound: Mapping[str, str | None],
) -> tuple[FunctionShape, int, str] | None:
    for index, decorator in enumerate(func.decorators):
        expr = decorator.decorator
        called = expr.func if isinstance(expr, cst.Call) else expr
        target = names.resolve(called)
        for shape in shapes:
            refused = [
                a.keyword.value
                for a in (expr.args if isinstance(expr, cst.Call) else ())
                if a.keyword is not None and a.keyword.value in shape.refuse
            ]
            reason = (
                f"`{refused[0]}=` has no counterpart in the adapter: it stays the framework's"
                if refused
                else ""
            )
            if target is not None and target in shape.decorators:
                return shape, index, reason
            if (
                isinstance(called, cst.Attribute)
                and called.attr.value in shape.attributes
                and isinstance(called.value, cst.Name)
                and bound.get(called.value.value) in shape.instances
            ):
                return shape, index, reason
    return None


def _dotted_name(module: str | None, qualname: str) -> str:
    return f"{module}.{qualname}" if module else qualname


def _inherited_str_uses(
    classes: list[_Class], local: dict[str, _Class], methods: frozenset[str]
) -> Iterator[tuple[_Class, str]]:
    """`self.m` / `super().m` of a tool method the class inherits from another module,
    used other than by returning it: the base must not start returning ToolResults."""
    for cls in classes:
        lineage, complete = _lineage(cls, local, skip_own=False)
        if complete:
            continue
        defined = {
            s.name.value
            for owner in lineage
            for s in owner.node.body.body
            if isinstance(s, cst.FunctionDef)
        }
        inherited = methods - defined
        if not inherited:
            continue
        for statement in cls.node.body.body:
            if not isinstance(statement, cst.FunctionDef):
                continue
            params = [*statement.params.posonly_params, *statement.params.params]
            me = params[0].name.value if params else None
            returned = _returned_calls(statement)
            for use in _attribute_uses(statement.body, me, inherited):
                if id(use) not in returned:
                    yield cls, f"{use.attr.value}"
                    break


_FactoryTool = tuple[cst.FunctionDef, FunctionShape, list[cst.Call], str]


def _factory_tools(
    tree: cst.Module, names: ModuleNames, shapes: Sequence[FunctionShape]
) -> list[_FactoryTool]:
    """Functions handed to a framework factory (`FunctionTool.from_defaults(fn=f)`), or to a
    method of an instance that makes tools (`mcp.add_tool(f)` where `mcp = FastMCP(...)`).

    The function is migrated (and the factory swapped for the adapter's, or the adapter
    put on the function) only when every use of its name is such a hand-over: anywhere
    else it would get a ToolResult. A name two functions of the module share is not
    followed: which one is handed over is not known.
    """
    defined: dict[str, list[cst.FunctionDef]] = {}
    for function, _ in _scoped_functions(tree, names):
        defined.setdefault(function.name.value, []).append(function)
    functions = {name: found[0] for name, found in defined.items() if len(found) == 1}
    handed: dict[str, list[tuple[cst.Call, FunctionShape, cst.Name]]] = {}
    for body, bound in _scoped_blocks(tree, names):
        stack: list[cst.CSTNode] = [s for s in body if not isinstance(s, cst.FunctionDef)]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.FunctionDef):
                continue  # its body is a block of its own
            stack += _children(node)
            if not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
                continue
            target = names.resolve(node.func)
            owner = node.func.value
            if isinstance(owner, cst.Name) and bound.get(owner.value):
                target = f"{bound[owner.value]}.{node.func.attr.value}"
            shape = next((f for f in shapes if target in f.factories), None)
            for arg in node.args if shape is not None else ():
                assert shape is not None
                keyword = arg.keyword.value if arg.keyword is not None else None
                first = arg is node.args[0] and keyword is None and not arg.star
                value = arg.value
                if (first or keyword in shape.factory_keywords) and isinstance(value, cst.Name):
                    if value.value in functions:
                        handed.setdefault(value.value, []).append((node, shape, value))
    uses = _references(tree, [functions[n] for n in handed]) if handed else {}
    found: list[_FactoryTool] = []
    for name, calls in handed.items():
        function = functions[name]
        # Every use of the name must be a hand-over.
        passed = {id(value) for _, _, value in calls}
        others = [u for u in uses[function] if id(u) not in passed]
        reason = (
            f"`{name}` is also used other than as the factory's function, "
            "where it would get a ToolResult"
            if others
            else ""
        )
        found.append((function, calls[0][1], [c for c, _, _ in calls], reason))
    return found


class _SwapCalls(cst.CSTTransformer):
    """Put the adapter in place of the framework's factory class, at the planned calls."""

    def __init__(self, swaps: Mapping[cst.Call, cst.Attribute]) -> None:
        super().__init__()
        self.swaps = swaps

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = self.swaps.get(original_node)
        return updated_node if func is None else updated_node.with_changes(func=func)


def _references(
    tree: cst.Module, functions: Iterable[cst.FunctionDef]
) -> dict[cst.FunctionDef, list[cst.CSTNode]]:
    """What refers to each function by name in the module, by LibCST's scopes.

    A local of the same name in another function (`log = []`), an attribute
    (`repo.git.status()`) or a keyword is not the function. Another binding of the name
    in the function's own scope counts as a use: which one a call gets is not known.
    """
    from libcst.metadata import ScopeProvider

    scopes = MetadataWrapper(tree, unsafe_skip_copy=True).resolve(ScopeProvider)
    found: dict[cst.FunctionDef, list[cst.CSTNode]] = {}
    for function in functions:
        scope = scopes.get(function)
        uses: list[cst.CSTNode] = []
        if scope is None:
            uses.append(function)  # unknown: treat as used
        else:
            for assignment in scope.assignments[function.name.value]:
                if getattr(assignment, "node", None) is not function:
                    uses.append(function)
                uses += [access.node for access in assignment.references]
        found[function] = uses
    return found
