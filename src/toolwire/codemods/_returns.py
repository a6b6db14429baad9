"""The tool-returns migration itself: plan a module, then rewrite what the plan says.

Kept apart from the LibCST command class (`tool_returns.py`) so that `toolwire migrate`
does not pay for importing `libcst.codemod` and its matchers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from toolwire.codemods._common import ModuleNames, def_lines, insert_import
from toolwire.codemods._common import result_reference as _result_reference
from toolwire.codemods._reports import MethodEvent, ToolReturnsReport
from toolwire.config import Config
from toolwire.engine import module_name

__all__ = ["ToolReturns"]

_N = TypeVar("_N", bound=cst.CSTNode)
_STR = frozenset({"str", "builtins.str"})


@dataclass(slots=True)
class _Method:
    node: cst.FunctionDef
    cls: _Class
    status: str = "migrate"  # migrate | already | skip
    reason: str = ""
    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)


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
_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}


def _field_names(node: cst.CSTNode) -> tuple[str, ...]:
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _children(node: cst.CSTNode, only: tuple[type, ...] | None = None) -> Iterator[cst.CSTNode]:
    for name in _field_names(node):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            if only is None or isinstance(value, only):
                yield value
        elif isinstance(value, tuple | list):
            for item in value:
                if isinstance(item, cst.CSTNode) and (only is None or isinstance(item, only)):
                    yield item


@dataclass(slots=True)
class _Scan:
    """The returns and yields of one function's own scope (not nested defs, lambdas, classes)."""

    returns: list[tuple[cst.Return, bool]] = field(default_factory=list)  # (node, in except)
    bare: str = ""
    generator: bool = False

    @classmethod
    def of(cls, func: cst.FunctionDef, yields_possible: bool) -> _Scan:
        scan = cls()
        stack: list[tuple[cst.CSTNode, bool]] = [(func.body, False)]
        while stack:
            node, in_except = stack.pop()
            if isinstance(node, cst.Return):
                scan.record(node, in_except)
            if isinstance(node, _SCOPES):
                continue
            inner = in_except or isinstance(node, cst.ExceptHandler | cst.ExceptStarHandler)
            stack += [(child, inner) for child in _children(node, _STATEMENTISH)]
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


def _has_yield(root: cst.CSTNode) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Yield):
            return True
        if not isinstance(node, _SCOPES):
            stack += _children(node)
    return False


class ToolReturns:
    """One migration plan per module; `run()` may be called for module after module."""

    def __init__(self, config: Config) -> None:
        self.config = config
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
        classes = list(_classes(tree.body, ""))
        self._plan(tree, names, classes, config)
        if not self._targets:
            return tree
        wraps = bool(self._wrap)
        ref = _result_reference(names, config.result_classes[0], runtime=wraps)
        self._ref = ref.expression
        _mark_path(tree, self._targets, self._path)
        tree = _Rewriter(self).rewrite(tree)
        if ref.add_import is not None:
            tree = insert_import(tree, ref.add_import)
        return tree

    def _plan(
        self, tree: cst.Module, names: ModuleNames, classes: list[_Class], config: Config
    ) -> None:
        local = {c.node.name.value: c for c in classes if c.top_level}
        module = names.module
        bases = frozenset(config.tool_bases)
        results = frozenset(config.result_classes)
        methods = frozenset(config.tool_methods)
        memo: dict[str, bool] = {}

        def is_tool(cls: _Class, seen: frozenset[str] = frozenset()) -> bool:
            if not bases:
                return True
            key = cls.qualname
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
                if not verdict and name in local and name not in seen and name != key:
                    verdict = is_tool(local[name], seen | {key})
            memo[key] = verdict
            return verdict

        planned: list[_Method] = []
        for cls in classes:
            if not is_tool(cls):
                continue
            for statement in cls.node.body.body:
                if not isinstance(statement, cst.FunctionDef):
                    continue
                name = statement.name.value
                if name not in methods:
                    continue
                entry = _Method(statement, cls)
                cls.methods.setdefault(name, entry)
                planned.append(entry)
                self._judge(entry, names, local, results)
        self._settle(planned, local, names, results, methods)
        lines = self._lines(tree, planned, methods)
        path = self.filename or "<unknown>"
        for entry in planned:
            line = lines.get(entry.node, 0)
            event = MethodEvent(path, line, entry.cls.qualname, entry.node.name.value, entry.reason)
            if entry.status == "skip":
                self.report.skipped.append(event)
                self.warnings.append(
                    f"line {line}: skipped {event.cls}.{event.method}: {entry.reason}"
                )
                continue
            dotted_class = f"{module}.{entry.cls.qualname}" if module else entry.cls.qualname
            self.report.known_tools.add(dotted_class)
            if entry.status == "migrate":
                self.report.migrated.append(event)
                self._targets[entry.node] = entry

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
        entry.returns = scan.returns

    def _settle(
        self,
        planned: list[_Method],
        local: dict[str, _Class],
        names: ModuleNames,
        results: frozenset[str],
        methods: frozenset[str],
    ) -> None:
        """Decide which returns are already results; repeat while skips change the answer."""
        changed = True
        while changed:
            changed = False
            self._wrap.clear()
            self._kinds.clear()
            for entry in planned:
                if entry.status != "migrate":
                    continue
                for node, in_except in entry.returns:
                    assert node.value is not None
                    kind = self._classify(node.value, entry, local, names, results, methods)
                    if kind.startswith("unknown:"):
                        entry.status, entry.reason = "skip", kind[8:]
                        changed = True
                        break
                    if kind != "result":
                        self._wrap[node] = in_except
        self.report.text = sum(1 for e in self._wrap.values() if not e)
        self.report.error = sum(1 for e in self._wrap.values() if e)

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
        if isinstance(func, cst.Attribute):
            owner = names.resolve(func.value, local)
            if owner in results and func.attr.value in ("text", "error"):
                return "result"
            called = func.attr.value
            if called in methods and _is_self(func.value, entry):
                return self._method_kind(entry.cls, called, local, skip_own=False)
            if called in methods and _is_super(func.value):
                return self._method_kind(entry.cls, called, local, skip_own=True)
        elif names.resolve(func, local) in results:
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
        via = "super()" if skip_own else "self"
        return (
            f"unknown:returns `{via}.{name}(...)`, a tool method not defined in this module: "
            "cannot tell whether it returns a ToolResult after the migration"
        )

    def _lines(
        self, tree: cst.Module, planned: list[_Method], methods: frozenset[str]
    ) -> dict[cst.FunctionDef, int]:
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
            if isinstance(value, _STATEMENTISH):
                new = self.rewrite(value, inside)
                if new is not value:
                    changes[name] = new
            elif isinstance(value, tuple | list) and value:
                items = [
                    self.rewrite(v, inside) if isinstance(v, _STATEMENTISH) else v for v in value
                ]
                if any(a is not b for a, b in zip(items, value, strict=True)):
                    changes[name] = items
        updated = node.with_changes(**changes) if changes else node
        if isinstance(node, cst.Return) and isinstance(updated, cst.Return):
            return cast(_N, self.leave_return(node, updated))
        if isinstance(node, cst.FunctionDef) and node in plan._targets:
            assert isinstance(updated, cst.FunctionDef) and updated.returns is not None
            returns = updated.returns.with_changes(annotation=self.annotation)
            return cast(_N, updated.with_changes(returns=returns))
        return updated

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
        target = names.resolve(node, local)
        return None if target in _STR else target  # a quoted "str" is not exactly `str`
    return names.resolve(node, local)


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
    for child in _children(node, _STATEMENTISH):
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
