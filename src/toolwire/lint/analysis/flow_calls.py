"""The flow's calls: what a call returns (a known class, a builtin, a method by its
receiver), local callables and partials written out at their call, and the summaries of
the module's functions per argument labels."""

from __future__ import annotations

import ast

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import UNBOUND, Callee, Definition, Env, Scope
from toolwire.lint.analysis.flow_base import (
    OPAQUE,
    SUMMARY_DEPTH,
    FlowBase,
    Summary,
    container,
    declared_returns,
)
from toolwire.lint.analysis.names import ClassInfo, local_bases
from toolwire.lint.analysis.units import relevant

_COLLECTORS = frozenset(
    {
        *(f"builtins.{n}" for n in ("list", "tuple", "set", "frozenset", "sorted", "reversed")),
        "builtins.iter",
        "asyncio.as_completed",  # yields the awaitables, each awaited gives its value
    }
)
# Run or wrap a coroutine: awaiting what they return gives what the coroutine returns.
_AWAITERS = frozenset(
    f"asyncio.{n}" for n in ("run", "wait_for", "shield", "create_task", "ensure_future")
)
_PARTIALS = frozenset({"functools.partial"})
# Calls that run their argument `fn(*rest)` (in a thread): `(dotted name or method, where
# fn is)`; awaiting them gives what the call of fn returns.
_RUNNERS = {"asyncio.to_thread": 0}
_RUNNER_METHODS = {"run_in_executor": 1}
_PICKERS = frozenset(f"builtins.{n}" for n in ("next", "min", "max"))
_ADDERS = frozenset({"append", "add", "insert", "extend"})
_MAPPING_PICKERS = frozenset({"get", "pop", "setdefault"})
_MAPPING_VIEWS = frozenset({"values", "copy"})
_SEQUENCE_PICKERS = frozenset({"pop"})
_STR_METHODS = frozenset(
    {"format", "format_map", "join", "strip", "lstrip", "rstrip", "upper", "lower", "replace"}
)


class Calls(FlowBase):
    """`Flow`'s calls, local callables and function summaries."""

    def call(self, node: ast.Call) -> int:
        func = node.func
        receiver = L.NOTHING
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value)
            self.ctx.remember(func, receiver)
        else:
            self.expr(func)
        arguments = L.NOTHING
        first = L.NOTHING
        for index, arg in enumerate(node.args):
            labels = self.expr(arg)
            arguments |= labels
            if index == 0:
                first = labels
        for keyword in node.keywords:
            arguments |= self.expr(keyword.value)
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.attr in _ADDERS
            and node.args
        ):
            # `parts.append(result)`: the list now holds what was added
            last = self.ctx.labels(node.args[-1])
            one = func.attr != "extend"
            added = container(last, L.RESULTS) if one else last
            kept = added & (L.WHOLE | L.ARTIFACT | L.TOOLS)
            if kept:
                env = self.ctx.scope.env
                env.set(func.value.id, env.get(func.value.id) | kept)
        return self._call_result(node, func, receiver, first, arguments)

    def _call_result(
        self, node: ast.Call, func: ast.expr, receiver: int, first: int, arguments: int
    ) -> int:
        if isinstance(func, ast.Name):
            if self._summarised is not None and self.ctx.scope.node is self._summarised:
                self._record_callback(node, func.id)
            callee = self.ctx.scope.env.callee(func.id)
            if callee is not None:
                return self._call_local(node, callee, arguments)
        elif (  # `partial(send, call_id)(result)`: `send(call_id, result)`
            isinstance(func, ast.Call)
            and func.args
            and not any(isinstance(a, ast.Starred) for a in func.args[:1])
            and self.ctx.qualify(func.func) in _PARTIALS
        ):
            return self._call_local(node, func, arguments)
        elif isinstance(func, ast.Attribute) and func.attr in _RUNNER_METHODS:
            at = _RUNNER_METHODS[func.attr]
            if len(node.args) > at and not any(
                isinstance(a, ast.Starred) for a in node.args[: at + 1]
            ):
                return self._expand(node, node.args[at], node.args[at + 1 :], [])
        dotted = self.ctx.qualify(func)
        if dotted is not None:
            found = self._dotted_call(node, func, dotted, receiver, first, arguments)
            if found is not None:
                return found
        if isinstance(func, ast.Attribute):
            found = self._method_call(node, func, receiver, first, arguments)
            if found is not None:
                return found
        return L.derived(receiver | arguments)

    def _dotted_call(
        self,
        node: ast.Call,
        func: ast.expr,
        dotted: str,
        receiver: int,
        first: int,
        arguments: int,
    ) -> int | None:
        """A call of a name that resolves: a runner, a known class or builtin, a function
        of this module or of another one of the run; None: nothing known of it."""
        if dotted in _RUNNERS and len(node.args) > _RUNNERS[dotted]:
            at = _RUNNERS[dotted]
            if not any(isinstance(a, ast.Starred) for a in node.args[: at + 1]):
                return self._expand(node, node.args[at], node.args[at + 1 :], list(node.keywords))
        found = self._known_call(node, dotted, first, arguments)
        if found is not None:
            return found
        facts = self.facts
        export = self.imported.get(dotted)
        if export is not None:
            return self._imported_call(node, dotted, export, arguments)
        summary = None
        if isinstance(func, ast.Name) and func.id in self._defs:
            summary = self._call_summary(node, func.id)
        if isinstance(func, ast.Name) and func.id in facts.functions:
            return declared_returns(facts.functions[func.id], receiver | arguments)
        if summary is not None:
            return summary.returns
        cls = facts.local_class(func)
        if cls is not None:
            return (L.TOOL if cls.is_tool else L.OTHER) | L.instance(cls.index)
        if facts.is_tool_class(dotted):
            return L.TOOL
        return None

    def _known_call(self, node: ast.Call, dotted: str, first: int, arguments: int) -> int | None:
        """A call of a class the model knows (a result, an artifact, a source, a logger)
        or of a builtin whose result is known from its arguments; None: neither."""
        facts = self.facts
        if facts.is_result_class(dotted):
            return facts.result(dotted)
        factory_of = dotted.rpartition(".")[0]
        if facts.is_result_class(factory_of):
            return facts.result(factory_of)
        if facts.is_artifact_class(dotted) or facts.is_artifact_class(factory_of):
            return L.ARTIFACT
        if facts.is_source_call(dotted):
            found = facts.source_call_result(dotted, node, self.ctx.labels)
            if found:
                return found
        known = facts.instance_of(dotted)
        if known:
            return known
        if facts.is_logger_class(dotted) or dotted in facts.index.logger_factories:
            return L.LOGGER
        return self._builtin_call(node, dotted, first, arguments)

    def _builtin_call(self, node: ast.Call, dotted: str, first: int, arguments: int) -> int | None:
        index = self.facts.index
        if dotted in OPAQUE:
            return L.OTHER
        if dotted in _COLLECTORS:
            return (
                (first & (L.RESULTS | L.ARTIFACT))
                | container(L.element_of(first), L.RESULTS)
                | L.shape_of(first)
                | L.OTHER
            )
        if dotted == "builtins.enumerate" and node.args:
            element = L.element_of(first)
            return container(element, L.RESULTS) | L.of_tuples([L.OTHER, element])
        if dotted == "builtins.zip" and node.args and not node.keywords:
            if not any(isinstance(a, ast.Starred) for a in node.args):
                elements = [L.element_of(self.ctx.labels(a)) for a in node.args]
                inner = L.NOTHING
                for element in elements:
                    inner |= element
                return container(inner, L.RESULTS) | L.of_tuples(elements)
        if dotted in _AWAITERS:
            return first or L.OTHER
        if dotted == "asyncio.gather" and node.args:
            return self._gathered(node.args)
        if dotted in _PICKERS:
            return L.element_of(first)
        if dotted in index.wrappers:
            return container(arguments & L.BASE, L.MAPPING)
        if dotted in index.stringifiers:
            return L.STR | L.derived(arguments)
        if (
            dotted == "builtins.getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            return self._member(first, node.args[1].value, None)
        if dotted == "builtins.dict":
            return (first | arguments) & (L.MAPPING | L.ARTIFACT) or L.OTHER
        return None

    def _gathered(self, args: list[ast.expr]) -> int:
        """`await asyncio.gather(a, b, *rest)`: a list of what each awaitable gives, in order."""
        labels = self.ctx.labels
        inner = L.NOTHING
        for arg in args:
            inner |= L.element_of(labels(arg)) if isinstance(arg, ast.Starred) else labels(arg)
        out = container(inner, L.RESULTS)
        if not any(isinstance(arg, ast.Starred) for arg in args):
            out |= L.a_tuple([labels(arg) for arg in args])
        return out

    def _method_call(
        self, node: ast.Call, func: ast.Attribute, receiver: int, first: int, arguments: int
    ) -> int | None:
        """`receiver.method(...)`: by the receiver's labels and class; None: not known."""
        facts = self.facts
        method = func.attr
        scope = self.ctx.scope
        if (
            isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and scope.cls is not None
            and arguments & L.TAINT
        ):
            summary = self._method_summary(node, scope.cls, method)
            if summary is not None and method not in scope.cls.returns:
                return summary.returns
        if receiver & L.LOGGER and method in facts.index.logger_children:
            return L.LOGGER
        if receiver & L.TOOL and method in facts.tool_methods:
            text = self._declared_text(func.value, receiver, method)
            return L.RESULT if text is None else declared_returns(text, receiver | arguments)
        if receiver & L.SOURCE_OWNER and method in facts.index.source_methods:
            found = facts.source_method_result(method, node, self.ctx.labels)
            if found:
                return found
        for owner in self._owner_classes(func.value, receiver):
            if method in owner.returns:
                return declared_returns(owner.returns[method], receiver | arguments)
        known = facts.instance_return(receiver, method)
        if known:
            return known
        return _by_receiver(node, func, receiver, first, arguments)

    def _declared_text(self, value: ast.expr, receiver: int, method: str) -> int | None:
        """What a tool method returns where the receiver's class (of this module) defines
        it with a body and declares a `str`: a method migrate leaves `-> str` is no tool
        by its name alone. None: a result, as tools are (also for a stub, whose
        implementations elsewhere may return one)."""
        owners = self._owner_classes(value, receiver)
        out = L.NOTHING
        for owner in owners:
            declared = owner.returns.get(method)
            definition = _defines(owner, method)
            if (
                declared is None
                or definition is None
                or not declared & L.STR
                or declared & ~(L.STR | L.MAYBE_NONE | L.OTHER)
                or _stub(definition)
                or self._overridden(owner, method)
            ):
                return None
            out |= declared
        return out or None

    def _overridden(self, owner: ClassInfo, method: str) -> bool:
        """Does a class of the module derived from `owner` define `method` again (so
        `self.method()` in `owner` may run that one)?"""
        key = (owner.index, method)
        found = self._overrides.get(key)
        if found is None:
            classes = self.facts.classes
            found = False
            for info in classes.values():
                if info is owner or not _defines(info, method):
                    continue
                seen: set[str] = set()
                stack = list(local_bases(info))
                while stack and not found:
                    name = stack.pop()
                    if name in seen or name not in classes:
                        continue
                    seen.add(name)
                    found = classes[name] is owner
                    stack.extend(local_bases(classes[name]))
                if found:
                    break
            self._overrides[key] = found
        return found

    def _callee(self, name: str, value: ast.AST | None) -> Callee | None:
        """What a name bound to `value` runs when called: a lambda or a nested def (through
        a summary, in the scope it closes over), or a `functools.partial(f, ...)`."""
        if isinstance(value, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef):
            key = f"{id(value)}.{name}"
            self._defs[key] = value
            self._closures[key] = self.ctx.scope
            return key, value
        if (
            isinstance(value, ast.Call)
            and value.args
            and not isinstance(value.args[0], ast.Starred)
            and self.ctx.qualify(value.func) in _PARTIALS
        ):
            return value
        return None

    def _call_local(self, node: ast.Call, callee: Callee, arguments: int) -> int:
        if isinstance(callee, int):  # `fn: Callable[..., ToolResult]`, then `fn(...)`
            return callee
        if isinstance(callee, ast.Call):  # `send = partial(f, a)`, `send(b)`: `f(a, b)`
            if id(callee) in self._partials:
                # `f = partial(f, a)` wraps the `f` bound before; the name now finds itself
                return L.derived(arguments)
            args = [*callee.args[1:], *node.args]
            self._partials.add(id(callee))
            try:
                return self._expand(node, callee.args[0], args, [*callee.keywords, *node.keywords])
            finally:
                self._partials.discard(id(callee))
        summary = self._call_summary(node, callee[0])
        return summary.returns if summary is not None else L.derived(arguments)

    def _expand(
        self, node: ast.Call, func: ast.expr, args: list[ast.expr], keywords: list[ast.keyword]
    ) -> int:
        """A call made on the code's behalf (`partial`, `run_in_executor`, `to_thread`),
        written out at `node` and checked like a call written there."""
        labels = self.ctx.labels
        arguments = L.NOTHING
        for arg in args:
            arguments |= labels(arg)
        for keyword in keywords:
            arguments |= labels(keyword.value)
        if self._expanding >= SUMMARY_DEPTH:
            return L.derived(arguments)
        self.work += 1
        call = ast.copy_location(ast.Call(func=func, args=args, keywords=keywords), node)
        receiver = labels(func.value) if isinstance(func, ast.Attribute) else L.NOTHING
        first = labels(args[0]) if args else L.NOTHING
        self._expanding += 1
        try:
            out = self._call_result(call, func, receiver, first, arguments)
        finally:
            self._expanding -= 1
        self.ctx.remember(call, out)
        self._dispatch(call)
        return out

    def _method_summary(self, node: ast.Call, cls: ClassInfo, method: str) -> Summary | None:
        """`self.helper(result)` in a method: the summary of the class's own method, when
        the call passes a result or a value from one."""
        definition = next(
            (
                s
                for s in cls.node.body
                if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == method
            ),
            None,
        )
        if definition is None or any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in definition.decorator_list
        ):
            return None
        key = f"{cls.qualname}.{method}"
        if key not in self._defs:
            self._defs[key] = definition
            self._owners[key] = cls
        return self._call_summary(node, key, bound=True)

    def _call_summary(self, node: ast.Call, name: str, bound: bool = False) -> Summary | None:
        """The summary of a function of the module for this call's arguments; the findings
        that the arguments cause inside it are reported at the call, and so are those of a
        callback passed to it, called there with a result (`_call_back`)."""
        definition = self._defs[name]
        given = self._arguments(definition, node, bound)
        if given is None:
            return None
        summary = self._given_summary(node, name, definition, given, bound)
        passed = _passed_callables(definition, node, bound)
        if passed:
            calls = self._parameters_called(definition)
            passed = [(param, arg) for param, arg in passed if param in calls]
        if passed:
            called = summary.callbacks if summary is not None else {}
            if not called:  # the summary without arguments was not computed
                baseline = self._summary(name, {})
                called = baseline.callbacks if baseline is not None else {}
            for param, arg in passed:
                if any(labels & L.TAINT for labels in called.get(param, ())):
                    self._call_back(node, arg, called[param], name.rpartition(".")[2], param)
        return summary

    def _record_callback(self, node: ast.Call, name: str) -> None:
        """`on_done(result)` in the function being summarised, `on_done` a parameter."""
        definition = self._summarised
        assert definition is not None
        if name not in self._parameters_called(definition):
            return
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return
        labels = tuple(self.ctx.labels(a) for a in node.args[:4])
        old = self._called.get(name)
        if old is not None and len(old) == len(labels):
            labels = tuple(L.join(a, b) for a, b in zip(old, labels, strict=True))
        self._called[name] = labels

    def _parameters_called(self, definition: Definition) -> frozenset[str]:
        """`_called_parameters`, once per function."""
        calls = self._calls_params.get(id(definition))
        if calls is None:
            calls = self._calls_params[id(definition)] = _called_parameters(definition)
        return calls

    def _call_back(
        self, node: ast.Call, arg: ast.expr, labels: tuple[int, ...], callee: str, param: str
    ) -> None:
        """`run(q, report)` where `run` calls `on_done(result)`: `report(result)`, written
        out at the call (where the summaries report what an argument causes)."""
        env = self.ctx.scope.env
        if isinstance(arg, ast.Name) and env.lookup(arg.id) != UNBOUND:
            local = env.callee(arg.id)
            if local is None or isinstance(local, int):
                return  # a value of unknown kind: nothing known of what it runs
        args: list[ast.expr] = []
        for each in labels:
            placeholder = ast.Name(id=f"what {callee}() gives {param}", ctx=ast.Load())
            self.ctx.remember(placeholder, each)
            args.append(placeholder)
        if isinstance(arg, ast.Lambda):
            local = self._callee("<lambda>", arg)
            assert local is not None
            call = ast.copy_location(ast.Call(func=arg, args=args, keywords=[]), node)
            self._call_local(call, local, L.NOTHING)
        else:
            self._expand(node, arg, args, [])

    def _given_summary(
        self, node: ast.Call, name: str, definition: Definition, given: dict[str, int], bound: bool
    ) -> Summary | None:
        if not any(labels & (L.TAINT | L.TOOL | L.TOOLS) for labels in given.values()):
            if bound:
                return None  # a method's declared return is a module fact already
            if name in self._returned:
                return Summary(self._returned[name], [])
            if not self._may_return_result(definition):
                return None
            given = {}
        summary = self._summary(name, given)
        if summary is None or not given:
            return summary
        baseline = self._summary(name, {})
        known = {(f.line, f.column, f.code) for f in baseline.findings} if baseline else set()
        for finding in summary.findings:
            if (finding.line, finding.column, finding.code) not in known:
                shown = name.rpartition(".")[2]
                self.ctx.report(
                    finding.code,
                    node,
                    f"{shown}() is given {self._given(node)}, and at line {finding.line}: "
                    f"{finding.message}",
                )
        return summary

    def _summary(self, name: str, given: dict[str, int]) -> Summary | None:
        key = (name, tuple(sorted(given.items())))
        if key in self._summaries:
            return self._summaries[key]  # None: a recursive call, assumed to add nothing
        if self._nesting >= SUMMARY_DEPTH:
            return None  # a call chain this deep is followed no further
        self._summaries[key] = None
        ctx = self.ctx
        saved = ctx.findings, ctx.scope, self._heads, self._looping
        owner = self._owners.get(name)
        outer = self._closures.get(name, self._module)
        if owner is not None:  # a method: interpreted in its class's scope
            outer = Scope(owner.node, owner.qualname.lstrip("."), owner, Env(self._module.env))
        ctx.findings, ctx.scope, self._heads, self._looping = {}, outer, {}, 0
        around = self._summarised, self._called
        self._summarised, self._called = self._defs[name], {}
        self._nesting += 1
        try:
            returns = self.function(self._defs[name], given)
            found = list(ctx.findings.values())
            called = self._called
        finally:
            self._nesting -= 1
            ctx.findings, ctx.scope, self._heads, self._looping = saved
            self._summarised, self._called = around
        self.work += 1
        summary = self._summaries[key] = Summary(returns, found, called)
        return summary

    def _arguments(
        self, definition: Definition, node: ast.Call, bound: bool
    ) -> dict[str, int] | None:
        """Parameter → labels of the argument this call passes, or None when unclear."""
        args = definition.args
        positional = [*args.posonlyargs, *args.args][1 if bound else 0 :]
        if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > len(positional):
            return None
        labels = self.ctx.labels
        pairs = zip(positional[: len(node.args)], node.args, strict=True)
        given = {param.arg: labels(arg) for param, arg in pairs}
        names = {a.arg for a in [*args.args, *args.kwonlyargs]}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in names:
                return None
            given[keyword.arg] = labels(keyword.value)
        return given

    def _given(self, node: ast.Call) -> str:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            if self.ctx.labels(arg) & L.TAINT:
                return self.ctx.describe(arg)
        return "its arguments"

    def _may_return_result(self, definition: Definition) -> bool:
        """Whether a summary can say more than "returns something else": the function is
        not one the per-definition pre-filter skips, or (without it) names a marker."""
        if self._skip is not None:
            return id(definition) not in self._skip
        name = getattr(definition, "name", "<lambda>")
        found = self._relevant.get(name)
        if found is None:
            start, end = definition.lineno, definition.end_lineno or definition.lineno
            text = "\n".join(self.ctx.lines[start - 1 : end])
            found = self._relevant[name] = relevant(text, self.facts.config)
        return found


def _by_receiver(
    node: ast.Call, func: ast.Attribute, receiver: int, first: int, arguments: int
) -> int | None:
    """A method of a mapping, a sequence, a result or a str, by the receiver's labels."""
    method = func.attr
    if receiver & L.MAPPING and method in _MAPPING_PICKERS:
        return L.RESULT | (receiver & L.ARTIFACT)
    if receiver & L.MAPPING and method in _MAPPING_VIEWS:
        return L.RESULTS | (receiver & L.ARTIFACT)
    if method == "items" and not node.args:
        artifacts = receiver & L.ARTIFACT
        value = (L.RESULT if receiver & L.MAPPING else L.NOTHING) | artifacts or L.OTHER
        return L.derived(receiver | arguments) | L.of_tuples([L.OTHER | artifacts, value])
    if receiver & L.RESULTS and method in _SEQUENCE_PICKERS:
        return L.RESULT | (receiver & L.ARTIFACT)
    if receiver & L.RESULT and method in ("to_flowdrop", "audit_record"):
        return L.ARTIFACT
    if (
        method == "join"
        and isinstance(func.value, ast.Constant)
        and len(node.args) == 1
        and isinstance(node.args[0], ast.GeneratorExp | ast.ListComp)
        and not node.keywords
        and first & (L.TAINT | L.STR) == L.CONTENT
    ):
        # `"\n".join(b.text for b in result.content)`: the wire texts of an MCP
        # result's blocks, joined, are the text the model reads
        return L.CONTENT | L.STR
    if receiver & L.STR and method in _STR_METHODS:
        return L.STR | L.derived(receiver | arguments)
    return None


def _passed_callables(
    definition: Definition, node: ast.Call, bound: bool
) -> list[tuple[str, ast.expr]]:
    """Parameter → the argument passed for it that can be called: a lambda, a name, a
    method (`logger.info`) or a `partial(...)`."""
    args = definition.args
    positional = [*args.posonlyargs, *args.args][1 if bound else 0 :]
    pairs = [(p.arg, a) for p, a in zip(positional, node.args, strict=False)]
    pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    return [
        (p, a) for p, a in pairs if isinstance(a, ast.Lambda | ast.Name | ast.Attribute | ast.Call)
    ]


def _called_parameters(definition: Definition) -> frozenset[str]:
    """The parameters the function's body calls by name (`on_done(...)`)."""
    args = definition.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    return frozenset(
        node.func.id
        for node in ast.walk(definition)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in params
    )


def _defines(info: ClassInfo, method: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for statement in info.node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            if statement.name == method:
                return statement
    return None


def _stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A declaration, not an implementation: only a docstring, `...`, `pass` or a raise."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return all(
        isinstance(s, ast.Pass | ast.Raise)
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in body
    )
