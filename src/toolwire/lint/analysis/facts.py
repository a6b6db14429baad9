"""Module facts: what the names mean, which classes are tools, what functions return.

Everything here is computed once per module, before the value flow runs.
"""

from __future__ import annotations

import ast
import functools
import operator
import weakref
from collections.abc import Callable, Mapping
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.handed_returns import handed_returns
from toolwire.lint.analysis.names import (
    ClassInfo,
    Matcher,
    Names,
    class_matcher,
    local_bases,
    matches,
    one_matcher,
    statements,
)
from toolwire.lint.analysis.tool_shapes import ToolShapeFacts, tool_shapes
from toolwire.lint.config import CallSink, Config
from toolwire.lint.model import Index, Model, Source, index
from toolwire.lint.signatures import find_bases

if TYPE_CHECKING:
    from toolwire.lint.analysis.modules import ClassExport

_SEQUENCES = frozenset(
    f"{m}.{n}"
    for m in ("builtins", "typing", "collections.abc", "collections")
    for n in (
        "list",
        "List",
        "tuple",
        "Tuple",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "AbstractSet",
        "MutableSet",
        "deque",
        "Deque",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
    )
)
_MAPPINGS = frozenset(
    f"{m}.{n}"
    for m in ("builtins", "typing", "collections.abc", "collections")
    for n in (
        "dict",
        "Dict",
        "Mapping",
        "MutableMapping",
        "DefaultDict",
        "defaultdict",
        "OrderedDict",
        "ChainMap",
        "Counter",
    )
)
_WRAPPERS = frozenset(
    f"{m}.{n}"
    for m in ("typing", "typing_extensions")
    for n in ("Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly")
)
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_CALLABLES = frozenset(
    {"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable"}
)
_AWAITABLES = frozenset(
    f"{m}.{n}" for m in ("typing", "collections.abc") for n in ("Awaitable", "Coroutine")
)
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})
_STR = frozenset({"builtins.str"})
_TUPLES = frozenset({"builtins.tuple", "typing.Tuple"})


def _fixed(args: list[ast.expr]) -> bool:
    """`tuple[A, B]`, not `tuple[A, ...]`."""
    return not any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args)


@functools.lru_cache(maxsize=64)
def _matchers(config: Config) -> tuple[Matcher, ...]:
    """The class matchers of a config, once per config rather than once per module."""
    model = index(config.model)
    return (
        class_matcher(config.result_names),
        class_matcher(tuple(n for t in config.result_types if t.factories for n in t.names)),
        class_matcher(
            tuple(n for t in config.result_types if _SAFE <= t.safe_strings for n in t.names)
        ),
        class_matcher(config.artifact_classes),
        class_matcher(tuple(model.source_owners)),
        class_matcher(tuple(model.logger_classes)),
    )


class ModuleFacts(ToolShapeFacts):
    """What the names of one module mean, which classes are tools, what functions return,
    which calls are sinks: computed once per module, before the value flow runs."""

    _takers: dict[str, dict[int, str]] | None = None  # `handed_return`, read when first asked

    def __init__(
        self,
        tree: ast.Module,
        config: Config,
        module: str | None,
        known_tools: frozenset[str] = frozenset(),
        shallow: frozenset[int] = frozenset(),
        package: bool = False,
        imported_classes: Mapping[str, ClassExport] | None = None,
    ) -> None:
        """`shallow`: top-level definitions (by id) the pre-filter found irrelevant; only
        the definition is a fact, not what is inside it. `package`: a package's `__init__`."""
        self.config = config
        self.module = module
        self._every = list(statements(tree.body, shallow))
        self.names = Names(tree, module, self._every, package)
        self.index: Index = index(config.model)
        (
            self._results,
            self._constructed,
            self._safe_strings,
            self._artifacts,
            self._source_owners,
            self._loggers,
        ) = _matchers(config)
        self.tool_methods = frozenset(config.tool_methods)
        self.kept_tools = frozenset(config.kept_tools)
        self.tool_classes: set[str] = {*config.tool_bases, *known_tools} - self.kept_tools
        packages = frozenset(
            [
                (module or "").partition(".")[0],
                *(d.partition(".")[0] for d in self.names.aliases.values()),
            ]
        )
        self.wire_sinks: dict[str, list[CallSink]] = _by_target(config.wire_sinks, packages)
        self.egress_sinks = _by_target(config.egress_sinks, packages)
        self.state_sinks = _by_target(config.state_sinks, packages)
        self.html_sinks = _by_target(config.html_sinks, packages)
        # only where the module imports from the package: most modules never look
        arguments = _run_only_arguments(config.model)
        self.run_only_arguments = (
            _by_target(arguments, packages)
            if any(a.target.partition(".")[0] in packages for a in arguments)
            else {}
        )
        self._packages = packages  # `state_return` asks, when first needed
        # the names those calls are written with (`ToolReturn`, or its local alias): a
        # function without one has no run-only argument
        tails = frozenset(a.target.rpartition(".")[2] for a in arguments)
        self.run_only_words = tails | frozenset(
            local
            for local, dotted in self.names.aliases.items()
            if self.run_only_arguments and dotted.rpartition(".")[2] in tails
        )
        # Instances of the known classes of other packages (`_known_classes`) get the
        # instance bits after the module's own classes'.
        self._known = _known_classes(config)
        self._class_nodes = [n for n in self._every if isinstance(n, ast.ClassDef)]
        self._known_base = len(self._class_nodes)
        self._imported(imported_classes or {})
        self._typed: dict[str, int] = {}  # `instance_of`, by dotted name
        self._pair_classes: dict[str, bool] = {}  # `pairs_tool`, by class
        self.receivers = L.NOTHING  # instance bits of the classes with sink methods
        # the result types' bits, each type's name for messages (`ToolMessage result`)
        self.result_bits = L.NOTHING
        self._result_shown: dict[int, str] = {}
        for at, shown in self._known[2].items():
            self.result_bits |= L.instance(self._known_base + at)
            self._result_shown[self._known_base + at] = shown
        self.default_result = config.result_classes[0].rpartition(".")[2]
        self.message_sinks = config.message_sinks
        self.egress_message_sinks = config.egress_message_sinks
        self._tree = tree
        self._shapes = tool_shapes(config.model)
        self._instances: dict[str, str | None] | None = None  # read when first asked
        self._handed: frozenset[int] | None = None
        self._handed_local: frozenset[int] | None = None
        self.classes: dict[str, ClassInfo] = {}
        self.functions: dict[str, int] = {}
        self._collect(tree, shallow)

    def _imported(self, classes: Mapping[str, ClassExport]) -> None:
        """The classes of the run's other modules that it imports (`toolwire check`): their
        instance bits come after the known classes'."""
        self.imported_classes = classes
        first = self._known_base + len(self._known[0])
        self._imported_bits = {dotted: first + at for at, dotted in enumerate(classes)}
        self.imported_by_bit = {
            first + at: ClassInfo.imported(dotted, dict(m.attributes), dict(m.returns))
            for at, (dotted, m) in enumerate(classes.items())
        }

    # -- classification of dotted names -----------------------------------------------------

    def is_result_class(self, dotted: str | None) -> bool:
        return dotted is not None and matches(dotted, self._results)

    def result_type_bits(self, dotted: str) -> int:
        """The instance bits of every result type `dotted` names (by any of its names)."""
        names, shown = self._known[0], self._known[2]
        out = L.NOTHING
        for rtype in self.config.result_types:
            if any(matches(dotted, one_matcher(n)) for n in rtype.names):
                for at in shown:
                    if names[at] in rtype.names:
                        out |= L.instance(self._known_base + at)
        return out

    def is_barrier(self, owner: int, attr: str, wire: bool = False) -> bool:
        """Is `<owner>.attr` a barrier (`wire`: the wire field) of every result type the
        value may be (by its bits, as mypy reads the type); of a result of unknown type,
        of any result type (by name); never an artifact's attribute (an artifact's
        `.data` is its payload, even where a result type's `.data` is not)."""
        kinds = owner & self.result_bits
        if kinds:
            fields = _barrier_bits(self.config, self._known)
            listed = (fields[1] if wire else fields[0]).get(attr, 0)
            return not kinds & ~(listed << self._known_base)
        return not owner & L.ARTIFACT

    def result(self, dotted: str) -> int:
        """Labels of an instance of the result class `dotted` (its type's bit too)."""
        out = L.RESULT | (L.SAFE_STR if matches(dotted, self._safe_strings) else L.NOTHING)
        return out | (self.instance_of(dotted) & self.result_bits)

    def classes_of(self, labels: int) -> list[ClassInfo]:
        """The module's classes and the imported ones that a value of `labels` may be an
        instance of (by their bits)."""
        local, imported = self.by_index, self.imported_by_bit
        return [
            local[i] if i < len(local) else imported[i]
            for i in L.instances(labels)
            if i < len(local) or i in imported
        ]

    def holding_class(self, labels: int) -> ClassInfo | None:
        """A class a value of `labels` may be an instance of whose fields hold a result."""
        for info in self.classes_of(labels):
            fields = (*info.attributes.values(), *info.assigned.values())
            if any(L.holds_result(f) for f in fields):
                return info
        return None

    def result_name(self, labels: int) -> str:
        """The result type a value of `labels` is, for messages, where it is known (one
        type: `ToolMessage`); else the first result class's name."""
        known = self._result_shown
        shown = {known[at] for at in L.instances(labels & self.result_bits) if at in known}
        return shown.pop() if len(shown) == 1 else self.default_result

    def source_method_result(
        self, method: str, node: ast.Call, labels: Callable[[ast.expr], int]
    ) -> int:
        """Labels of what a source method returns, its class unknown: safe only if every
        source method of that name returns a type with safe string forms. Nothing when
        each of them has an argument condition that `node` does not meet."""
        return self._source_result(lambda s: s.call.rpartition(".")[2] == method, node, labels)

    def source_call_result(
        self, dotted: str, node: ast.Call, labels: Callable[[ast.expr], int]
    ) -> int:
        """Labels of what a call of the source function (or `Class.method`) returns."""
        return self._source_result(lambda s: s.call == dotted, node, labels)

    def _source_result(
        self, chosen: Callable[[Source], bool], node: ast.Call, labels: Callable[[ast.expr], int]
    ) -> int:
        out = L.RESULT | L.SAFE_STR
        kinds = L.NOTHING  # the result types it may be (their bits are joined, not met)
        found = False
        for source in self.config.model.sources:
            if chosen(source) and self._argument_is(source, node, labels):
                result = self.result(source.returns)
                out &= result
                kinds |= result & self.result_bits
                found = True
        return out | kinds if found else L.NOTHING

    def _argument_is(
        self, source: Source, node: ast.Call, labels: Callable[[ast.expr], int]
    ) -> bool:
        """Does `node` meet the source's argument condition (`argument-is`): the argument
        is annotated as (or built by a call of) one of the types, or is a dict literal
        with one of the `key=value` items?"""
        if not source.argument:
            return True
        position, _, name = source.argument.partition("=")
        given = next((k.value for k in node.keywords if k.arg == name), None)
        if given is None and position != "*":
            at = int(position)
            if at < len(node.args) and not any(
                isinstance(a, ast.Starred) for a in node.args[: at + 1]
            ):
                given = node.args[at]
        if given is None:
            return False
        for kind in source.argument_is:
            key, literal, value = kind.partition("=")
            if not literal:
                if labels(given) & self.instance_of(kind) & ~L.BASE:
                    return True
            elif isinstance(given, ast.Dict):
                for k, v in zip(given.keys, given.values, strict=True):
                    if (
                        isinstance(k, ast.Constant)
                        and k.value == key
                        and isinstance(v, ast.Constant)
                        and v.value == value
                    ):
                        return True
        return False

    def is_constructed_class(self, dotted: str | None) -> bool:
        """A result type built only by its factories (TW102, TW103, TW105)."""
        return dotted is not None and matches(dotted, self._constructed)

    def is_artifact_class(self, dotted: str | None) -> bool:
        return dotted is not None and matches(dotted, self._artifacts)

    def is_logger_class(self, dotted: str | None) -> bool:
        return dotted is not None and matches(dotted, self._loggers)

    def is_source_call(self, dotted: str | None) -> bool:
        return dotted is not None and dotted in self.index.source_calls

    def is_tool_class(self, dotted: str | None) -> bool:
        return dotted is not None and dotted in self.tool_classes

    def local_class(self, expr: ast.expr) -> ClassInfo | None:
        return self.classes.get(expr.id) if isinstance(expr, ast.Name) else None

    # -- annotations ----------------------------------------------------------------------

    def annotation(self, node: ast.expr | None) -> int:
        """Labels that an annotation promises; 0 when it says nothing we track."""
        if node is None:
            return L.NOTHING
        if isinstance(node, ast.Constant):
            if node.value is None:
                return L.MAYBE_NONE
            if isinstance(node.value, str):
                try:
                    parsed = ast.parse(node.value.strip(), mode="eval").body
                except (SyntaxError, ValueError, RecursionError):
                    return L.NOTHING
                return self.annotation(parsed)
            return L.NOTHING
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.annotation(node.left) | self.annotation(node.right)
        if isinstance(node, ast.Subscript):
            return self._generic(self.names.qualify(node.value), node.slice)
        dotted = self.names.qualify(node)
        if dotted is not None and self.is_result_class(dotted):
            return self.result(dotted)
        if self.is_artifact_class(dotted):
            return L.ARTIFACT
        if self.is_tool_class(dotted):
            return L.TOOL
        if dotted in self.kept_tools:
            return L.OTHER  # a plain instance: the annotation wins over the value
        local = self.local_class(node)
        if local is not None and dotted == local.qualname:
            return L.instance(local.index)
        if self.is_logger_class(dotted):
            return L.LOGGER
        known = self.instance_of(dotted)
        if known:
            return known
        if dotted in _STR:
            return L.STR
        return L.NOTHING

    def _generic(self, base: str | None, argument: ast.expr) -> int:
        args = argument.elts if isinstance(argument, ast.Tuple) else [argument]
        if self.is_logger_class(base):  # `LoggerAdapter[Logger]`
            return L.LOGGER
        if base in _OPTIONAL:
            return self.annotation(args[0]) | L.MAYBE_NONE
        if base in _UNION:
            out = L.NOTHING
            for arg in args:
                out |= self.annotation(arg)
            return out
        if base in _WRAPPERS:
            return self.annotation(args[0])
        if base in _SEQUENCES:
            inner = L.NOTHING
            for arg in args:
                inner |= self.annotation(arg)
            out = _container_of(inner, L.RESULTS)
            if base in _TUPLES and _fixed(args) and out:
                out |= L.a_tuple([self.annotation(arg) or L.OTHER for arg in args])
            elif len(args) == 1 and out:
                # `list[tuple[str, ToolResult]]`: each element keeps its positions
                element = self.annotation(args[0])
                if element & L.TUPLE:
                    out |= L.of_tuples(L.tuple_parts(element, L.POSITIONS) or [])
            return out
        if base in _MAPPINGS:
            return _container_of(self.annotation(args[-1]), L.MAPPING)
        return L.NOTHING

    def returns(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
        return self.annotation(node.returns)

    def callable_returns(self, node: ast.expr | None) -> int:
        """What a call of a value annotated `node` returns, when that is a `Callable[...,
        R]` (or an optional one) and R holds a result or an artifact: R's labels, through an
        `Awaitable[R]`/`Coroutine[.., R]`."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.callable_returns(node.left) | self.callable_returns(node.right)
        if not isinstance(node, ast.Subscript):
            return L.NOTHING
        base = self.names.qualify(node.value)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in _OPTIONAL or base in _UNION:
            return functools.reduce(operator.or_, map(self.callable_returns, args), L.NOTHING)
        if base not in _CALLABLES or len(args) != 2:
            return L.NOTHING
        returned = args[1]
        if (
            isinstance(returned, ast.Subscript)
            and self.names.qualify(returned.value) in _AWAITABLES
        ):
            inner = returned.slice
            returned = inner.elts[-1] if isinstance(inner, ast.Tuple) and inner.elts else inner
        labels = self.annotation(returned)
        return labels if labels & (L.RESULT | L.RESULTS | L.ARTIFACT) else L.NOTHING

    # -- collection -------------------------------------------------------------------------

    def _collect(self, tree: ast.Module, shallow: frozenset[int]) -> None:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                labels = self.returns(node)
                if labels:
                    self.functions[node.name] = labels
        classes = self._class_nodes
        prefix = f"{self.module}." if self.module else "."
        for node in classes:
            info = ClassInfo(
                node.name,
                prefix + node.name,
                node,
                # `AbstractToolset[Any]` derives `AbstractToolset`
                [
                    self.names.qualify(b.value if isinstance(b, ast.Subscript) else b)
                    for b in node.bases
                ],
            )
            info.index = len(self.classes)
            self.classes.setdefault(node.name, info)
        self.by_index = list(self.classes.values())
        # Tool-ness flows down inheritance chains inside the module: iterate to a fixpoint.
        # A class the pre-filter found irrelevant names no tool base and no tool method.
        maybe = [info for info in self.classes.values() if id(info.node) not in shallow]
        changed = True
        while changed:
            changed = False
            for info in maybe:
                if not info.is_tool and self._is_tool(info):
                    info.is_tool = True
                    self.tool_classes.add(info.qualname)
                    changed = True
        for info in self.classes.values():
            info.facts = weakref.ref(self)
        for table in (self.wire_sinks, self.egress_sinks, self.state_sinks, self.html_sinks):
            self._inherit_sinks(table)
        self._receivers()

    def _inherit_sinks(self, table: dict[str, list[CallSink]]) -> None:
        """`RichMessage.tool_result` where `class RichMessage(ChatMessage)` in this module
        inherits (or overrides) a configured sink method: a sink too."""
        methods: dict[str, list[tuple[str, list[CallSink]]]] = {}
        for target, sinks in table.items():
            owner, _, method = target.rpartition(".")
            methods.setdefault(owner, []).append((method, sinks))
        if not methods:
            return
        changed = True
        while changed:  # through chains of local subclasses
            changed = False
            for info in self.classes.values():
                for base in info.bases:
                    for method, sinks in methods.get(base or "", []):
                        target = f"{info.qualname}.{method}"
                        if target not in table:
                            table[target] = sinks
                            methods.setdefault(info.qualname, []).append((method, sinks))
                            changed = True

    def _receivers(self) -> None:
        """The instance bits worth a look at a method call: the known classes of other
        packages, and the module's classes that have (or inherit) a sink method."""
        owners = {
            target.rpartition(".")[0]
            for table in (self.wire_sinks, self.egress_sinks, self.state_sinks, self.html_sinks)
            for target in table
        }
        mask = L.NOTHING
        for info in self.by_index:
            if info.qualname in owners:
                mask |= L.instance(info.index)
        for at in range(self._known[3]):
            mask |= L.instance(self._known_base + at)
        self.receivers = mask

    def instance_of(self, dotted: str | None) -> int:
        """Labels of an instance of `dotted`, a class of another package (annotated, or
        called), when the model knows it: a source owner, a class with a sink method."""
        if dotted is None:
            return L.NOTHING
        out = self._typed.get(dotted)
        if out is None:
            out = L.SOURCE_OWNER if matches(dotted, self._source_owners) else L.NOTHING
            if dotted in self._imported_bits:
                out |= L.instance(self._imported_bits[dotted])
            names, matcher = self._known[:2]
            # a known class ends with its own name: most names are not asked further
            if dotted.rpartition(".")[2] in self._known[4] and matches(dotted, matcher):
                for at, name in enumerate(names):
                    if matches(dotted, one_matcher(name)):
                        out |= L.instance(self._known_base + at)
            if not out & self.receivers:
                out |= self._inherited_receivers(dotted)
            self._typed[dotted] = out
        return out

    def _inherited_receivers(self, dotted: str) -> int:
        """A class of a sink owner's package that subclasses a class with a method sink
        (`smolagents.CodeAgent` for `MultiStepAgent.run`): its ancestors are read from
        the package's source, only for the packages that hold such a class."""
        roots = _receiver_roots(self.config).get(dotted.partition(".")[0])
        if roots is None:
            return L.NOTHING
        names = self._known[0]
        out = L.NOTHING
        for ancestor in find_bases(dotted, roots):
            for at in range(self._known[3]):
                if matches(ancestor, one_matcher(names[at])):
                    out |= L.instance(self._known_base + at)
        return out

    def handed_return(self, node: ast.AST, key: str) -> str | None:
        """The call that takes what function `node` returns, by the model's `key`
        (`state-returns`: `StateGraph.add_node`; `wire-returns`: `after_tool_call`), or None."""
        if self._takers is None:
            self._takers = {}
        found = self._takers.get(key)
        if found is None:
            specs = _handed_specs(self.config.model, key)
            # only where the module imports from the package: most modules never look
            if any(s.target.partition(".")[0] in self._packages for s in specs):
                found = handed_returns(self._tree, self.names, specs)
            self._takers[key] = found = found or {}
        return found.get(id(node))

    def instance_return(self, receiver: int, method: str, attribute: bool = False) -> int:
        """Labels of what `receiver.method(...)` returns when the model's `instance-returns`
        says (`builder.compile()` of a `StateGraph` is a `CompiledStateGraph`); with
        `attribute`, of `receiver.method` by its `instance-attributes` (`tool_context.state`)."""
        model = self.config.model
        returns = model.instance_attributes if attribute else model.instance_returns
        names, base = self._known[0], self._known_base
        for at in L.instances(receiver) if returns else ():
            if 0 <= at - base < len(names):
                called = f"{names[at - base]}.{method}="
                for spec in returns:
                    if spec.startswith(called):
                        return self.instance_of(spec.partition("=")[2]) or L.OTHER
        return L.NOTHING

    def method_targets(self, receiver: int, method: str) -> list[str]:
        """`Class.method` for each class whose instance `receiver` may be, of those that
        a method sink can be on: typed only from annotations and constructor calls."""
        hits = receiver & self.receivers
        if not hits:
            return []
        names = self._known[0]
        out = []
        for at in L.instances(hits):
            if at < len(self.by_index):
                out.append(f"{self.by_index[at].qualname}.{method}")
            elif 0 <= at - self._known_base < len(names):
                out.append(f"{names[at - self._known_base]}.{method}")
        return out

    def _is_tool(self, info: ClassInfo) -> bool:
        if info.qualname in self.kept_tools:
            return False
        if info.qualname in self.tool_classes:
            return True  # a configured tool base defined in this very module
        if any(self.is_tool_class(b) for b in info.bases):
            return True
        if any(b in self.classes and self.classes[b].is_tool for b in local_bases(info)):
            return True
        if self.config.tool_bases:
            return False
        # Without tool-bases, a class is a tool when a tool method has the tool signature.
        return any(
            isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
            and s.name in self.tool_methods
            and self.returns(s) & (L.STR | L.RESULT)
            for s in info.node.body
        )

    def members(self, info: ClassInfo) -> None:
        for statement in info.node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                labels = self.annotation(statement.annotation)
                if labels:
                    info._attributes[statement.target.id] = labels
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                labels = self.returns(statement)
                if labels:
                    info._returns[statement.name] = labels
                for node in statements(statement.body):
                    labels = self._self_attribute(node)
                    if labels and isinstance(node, ast.AnnAssign | ast.Assign):
                        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
                        assert isinstance(target, ast.Attribute)
                        info._attributes[target.attr] = labels

    def _self_attribute(self, node: ast.AST) -> int:
        """Labels of `self.x: T = ...` or `self.x = logging.getLogger(...)`, else 0."""
        if isinstance(node, ast.AnnAssign) and _is_self_attribute(node.target):
            return self.annotation(node.annotation)
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and _is_self_attribute(node.targets[0])
            and isinstance(node.value, ast.Call)
            and self.names.qualify(node.value.func) in self.index.logger_factories
        ):
            return L.LOGGER
        return L.NOTHING


_SAFE = frozenset({"str", "format"})  # the string forms SAFE_STR stands for


def _is_self_attribute(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _container_of(inner: int, kind: int) -> int:
    out = inner & L.ARTIFACT
    if inner & (L.RESULT | L.RESULTS | L.MAPPING):
        out |= kind | (inner & L.SAFE_STR)
    if inner & (L.TOOL | L.TOOLS):
        out |= L.TOOLS
    return out


def _known_classes(config: Config) -> _Known:
    # by identity first: a run asks once per module, with one config, and hashing a
    # config hashes every sink's search roots
    if _KNOWN_LAST and _KNOWN_LAST[0][0] is config:
        return _KNOWN_LAST[0][1]
    found = _known_classes_of(config)
    _KNOWN_LAST[:] = [(config, found)]
    return found


def _barrier_bits(config: Config, known: _Known) -> _Fields:
    """Each barrier attribute, and each wire field → the instance bits (before the
    module's own classes) of the result types that list it; once per config (by
    identity, as `_known_classes`)."""
    if _BARRIERS_LAST and _BARRIERS_LAST[0][0] is known:
        return _BARRIERS_LAST[0][1]
    names, shown = known[0], known[2]
    barriers: dict[str, int] = {}
    wires: dict[str, int] = {}
    for rtype in config.result_types:
        bits = L.NOTHING
        for at in shown:
            if names[at] in rtype.names:
                bits |= L.instance(at)
        for barrier in rtype.barriers:
            barriers[barrier] = barriers.get(barrier, L.NOTHING) | bits
        wires[rtype.wire] = wires.get(rtype.wire, L.NOTHING) | bits
    _BARRIERS_LAST[:] = [(known, (barriers, wires))]
    return barriers, wires


# the known classes' names, matcher, result types shown by index, receivers, last names
_Known = tuple[tuple[str, ...], Matcher, dict[int, str], int, frozenset[str]]
_KNOWN_LAST: list[tuple[Config, _Known]] = []
_Fields = tuple[dict[str, int], dict[str, int]]  # barrier → type bits, wire field → bits
_BARRIERS_LAST: list[tuple[_Known, _Fields]] = []


@functools.cache
def _known_classes_of(config: Config) -> _Known:
    """The classes of other packages whose instances the syntax layer follows: those with
    a method sink (`BaseChatMessageHistory.add_message`), the types of a source's argument
    condition (`ToolCall`), the result types. Never typed from a name. Also: which of them
    are result types (index -> the name shown), how many have method sinks, and their
    last names."""
    model = config.model
    sinks = (config.wire_sinks, config.egress_sinks, config.state_sinks, config.html_sinks)
    # a method's run-only argument (`tool_context.save_artifact`) is matched as a sink is
    owners = (s.target.rpartition(".")[0] for s in (*chain(*sinks), *_run_only_arguments(model)))
    classes = list(dict.fromkeys(o for o in owners if o.rpartition(".")[2][:1].isupper()))
    receivers = len(classes)  # the first ones: the classes with a method sink
    # the classes whose methods or attributes give a known instance (`StateGraph.compile`)
    returns = (*model.instance_returns, *model.instance_attributes)
    classes += [r.partition("=")[0].rpartition(".")[0] for r in returns]
    # the types a source's argument condition names (`ToolCall`)
    classes += [k for s in config.model.sources for k in s.argument_is if "=" not in k]
    # and the result types, by each of their names: where known, messages name the type
    shown: dict[int, str] = {}
    for rtype in config.result_types:
        for name in rtype.names:
            shown[len(classes)] = rtype.name.rpartition(".")[2]
            classes.append(name)
    names = tuple(classes)
    tails = frozenset(n.rpartition(".")[2] for n in names)
    return names, class_matcher(names), shown, receivers, tails


@functools.cache
def _receiver_roots(config: Config) -> dict[str, tuple[Path, ...]]:
    """Where to read the source of each package that holds a class with a method sink."""
    out: dict[str, tuple[Path, ...]] = {}
    for sinks in (config.wire_sinks, config.egress_sinks, config.state_sinks, config.html_sinks):
        for sink in sinks:
            owner = sink.target.rpartition(".")[0]
            if owner.rpartition(".")[2][:1].isupper() and sink.roots:
                out.setdefault(owner.partition(".")[0], sink.roots)
    return out


@functools.cache
def _handed_specs(model: Model, key: str) -> tuple[CallSink, ...]:
    """The model's `state-returns` or `wire-returns`, as sinks (their form is checked when
    read)."""
    from toolwire.lint.config import parse_sink

    out = []
    for spec in getattr(model, key.replace("-", "_")):
        sink = parse_sink(None, key, spec, ())
        if isinstance(sink, CallSink):
            out.append(sink)
    return tuple(out)


@functools.cache
def _run_only_arguments(model: Model) -> tuple[CallSink, ...]:
    """The model's `run-only-arguments`, as sinks (their form is checked when read)."""
    from toolwire.lint.config import parse_sink

    out = []
    for spec in model.run_only_arguments:
        sink = parse_sink(None, "run-only-arguments", spec, ())
        if isinstance(sink, CallSink):
            out.append(sink)
    return tuple(out)


def _by_target(sinks: tuple[CallSink, ...], packages: frozenset[str]) -> dict[str, list[CallSink]]:
    """Sinks by every name they are known by: as configured, and the definition's (read
    from the package's source only for a module that imports from that package)."""
    table: dict[str, list[CallSink]] = {}
    for sink in sinks:
        imported = sink.target.partition(".")[0] in packages
        for target in sink.definitions() if imported else sink.targets:
            table.setdefault(target, []).append(sink)
    return table
