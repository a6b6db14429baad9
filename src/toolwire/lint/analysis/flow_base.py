"""The state the value flow's topics share (`Flow` is made of them): the attributes, the
checks' dispatch, the constants and label helpers more than one topic uses."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import TYPE_CHECKING

import toolwire.lint.analysis.labels as L
from toolwire.lint.analysis.context import UNBOUND, Context, Definition, Scope, Visitors
from toolwire.lint.analysis.modules import FunctionExport
from toolwire.lint.analysis.names import ClassInfo
from toolwire.lint.findings import Finding

if TYPE_CHECKING:
    from toolwire.lint.analysis.context import Callee

# Calls whose result says nothing about their arguments' contents.
OPAQUE = frozenset(
    f"builtins.{n}" for n in ("len", "bool", "isinstance", "issubclass", "type", "id", "hash")
)
# Summaries nest one interpretation per call level: past this depth a call is treated as
# an unknown function, so a long generated chain never runs out of stack.
SUMMARY_DEPTH = 40
# Of the types that prove a value is no single result, the ones that hold nothing at all:
# a str, a number. A value proved to be one (`isinstance(x, str)`, `case str() as x`)
# holds no result, whatever its union said; what it was computed from (`.content`, a
# string made from a result, an artifact) stays.
SCALARS = frozenset(
    f"builtins.{n}" for n in ("str", "bytes", "bytearray", "int", "float", "complex", "bool")
)
# What an annotation keeps through a later binding of unknown origin: that the name holds
# a result (or an artifact). A receiver's type (a sink's class, a tool, a logger) is not
# kept: a name bound again to anything else loses it (docs/model.md).
DECLARED = L.WHOLE | L.ARTIFACT | L.SAFE_STR


class Summary:
    """What a call of a local function does, for one set of argument labels."""

    # A plain class: a dataclass compiles its methods from text at every start-up.
    def __init__(
        self,
        returns: int,  # labels of what the call returns
        findings: list[Finding],  # what its body reports, given these arguments
        # parameter → labels per position of what the body calls it with (a callback)
        callbacks: dict[str, tuple[int, ...]] | None = None,
    ) -> None:
        self.returns = returns
        self.findings = findings
        self.callbacks = {} if callbacks is None else callbacks


class FlowBase:
    """What every topic of the flow reads and writes. The methods one topic calls of
    another are declared here for the type checker only: `Flow` inherits them all."""

    def __init__(
        self,
        ctx: Context,
        visitors: Visitors,
        imported: dict[str, FunctionExport] | None = None,
    ) -> None:
        self.ctx = ctx
        self._labels = ctx._labels
        self.imported = imported or {}  # functions of other modules of the run, by dotted name
        self.facts = ctx.facts
        self.visitors = visitors
        self.work = 0  # statements visited, names joined, calls expanded: linear in the module
        # loop → (its head at the fixpoint, the keys it reads, their values then)
        self._heads: dict[int, tuple[dict[str, int], tuple[str, ...] | None, tuple[int, ...]]] = {}
        self._looping = 0
        # inside a try, a with (or a finally's scope): an exit there may flow on
        self._guarded = 0
        self._module = Scope(ast.Module(body=[], type_ignores=[]), "")
        self._defs: dict[str, Definition] = {}
        self._top: list[str] = []  # the module's own top-level functions
        # a message reported from another module's summary → where it happens
        self._origins: dict[str, tuple[str, int, str, str]] = {}
        self._closures: dict[str, Scope] = {}  # summary key → scope, for local callables
        self._expanding = 0  # partials expanded inside one another
        self._partials: set[int] = set()  # the partials being expanded, by id
        self._returns = self._yields = UNBOUND
        # Function summaries: what a module-level function returns as the main pass saw it,
        # and per (function, argument labels) what it returns and the findings the
        # arguments cause inside it. None while one is being computed (recursion).
        self._returned: dict[str, int] = {}
        self._relevant: dict[str, bool] = {}
        self._owners: dict[str, ClassInfo] = {}  # summary key → class, for methods
        self._overrides: dict[tuple[int, str], bool] = {}  # (class, method) → redefined below
        self._nesting = 0
        self._skip: frozenset[int] | None = None
        self._summaries: dict[tuple[str, tuple[tuple[str, int], ...]], Summary | None] = {}
        self._seeded: dict[int, frozenset[str]] = {}  # function → its `_seeds`
        # the function being summarised, and what its parameters are called with
        self._summarised: Definition | None = None
        self._called: dict[str, tuple[int, ...]] = {}
        self._calls_params: dict[int, frozenset[str]] = {}  # function → parameters it calls

    def _dispatch(self, node: ast.AST) -> None:
        for visit in self.visitors.get(type(node), ()):
            visit(node, self.ctx)

    def proved_results(self, test: ast.expr) -> tuple[tuple[str, int], ...]:
        """Where `isinstance(name, R)` is true and every R is a result type, the name is
        one of them (its labels then); nothing for any other test."""
        if not (
            isinstance(test, ast.Call)
            and len(test.args) == 2
            and not test.keywords
            and isinstance(test.args[0], ast.Name)
            and self.ctx.qualify(test.func) == "builtins.isinstance"
        ):
            return ()
        kinds = test.args[1]
        labels = L.NOTHING
        for kind in kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]:
            dotted = self.ctx.qualify(kind)
            if dotted is None or not self.facts.is_result_class(dotted):
                return ()
            labels |= self.facts.result(dotted)
        return ((test.args[0].id, labels),) if labels else ()

    def prove_results(self, test: ast.expr) -> None:
        """Bind what `proved_results(test)` proves, in the current frame, for a name that
        is not known to hold a result already."""
        env = self.ctx.scope.env
        for name, labels in self.proved_results(test):
            held = env.lookup(name)
            if held == UNBOUND or not held & L.WHOLE:
                env.set(name, labels)

    if TYPE_CHECKING:

        def block(self, body: Iterable[ast.stmt]) -> None: ...
        def statement(self, node: ast.stmt) -> None: ...
        def bind(self, target: ast.expr, labels: int, value: ast.expr | None) -> None: ...
        def bind_iteration(self, target: ast.expr, labels: int, iterable: ast.expr) -> None: ...
        def expr(self, node: ast.expr) -> int: ...
        def call(self, node: ast.Call) -> int: ...
        def function(self, node: Definition, given: dict[str, int] | None = None) -> int: ...
        def klass(self, node: ast.ClassDef) -> None: ...
        def _member(self, owner: int, attr: str, value: ast.expr | None) -> int: ...
        def _owner_classes(self, value: ast.expr | None, labels: int) -> list[ClassInfo]: ...
        def _callee(self, name: str, value: ast.AST | None) -> Callee | None: ...
        def _summary(self, name: str, given: dict[str, int]) -> Summary | None: ...
        def _imported_call(
            self, node: ast.Call, dotted: str, export: FunctionExport, arguments: int
        ) -> int: ...
        def _seeds(
            self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: ClassInfo | None
        ) -> frozenset[str]: ...
        def _seed(self, labels: int, value: ast.expr | None) -> int: ...
        def _given(self, node: ast.Call) -> str: ...


def declared_returns(returns: int, inputs: int) -> int:
    """A call's labels from its return annotation: a result is a result, whatever went in;
    a `str` built from a result is still computed from it."""
    if returns & (L.WHOLE | L.TOOL | L.TOOLS | L.ARTIFACT | L.LOGGER):
        return returns
    return returns | L.derived(inputs)


def container(inner: int, kind: int) -> int:
    out = (inner & (L.ARTIFACT | L.TOOLS)) | L.OTHER
    if inner & (L.RESULT | L.RESULTS | L.MAPPING):
        out |= kind | (inner & L.SAFE_STR)
    if inner & L.TOOL:
        out |= L.TOOLS
    if inner & L.DERIVED:
        out |= L.DERIVED
    elif inner & L.CONTENT:
        # `{"result": result.content}`, `[{"type": "text", "text": result.content}]`: a
        # structure around exactly the wire field adds nothing from the result
        out |= L.CONTENT
    return out


def attribute_key(node: ast.Attribute) -> str | None:
    if isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None
