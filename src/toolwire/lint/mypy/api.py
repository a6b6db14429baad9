"""What a check of the type layer sees: the call it is handed and the plugin's services.

The checks in `checks/` import this module, never the plugin class (as django-stubs'
transformers never import its `main`): `plugin.ToolwirePlugin` implements `Rules`, and
`checks.register_all` hands it to each check's `register`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from mypy.nodes import ArgKind, Context, Expression
from mypy.plugin import CheckerPluginInterface, ClassDefContext
from mypy.types import Type

if TYPE_CHECKING:  # loaded with the first config: a warm cache never needs them
    from toolwire.lint.config import Config
    from toolwire.lint.model import Index, ResultType


class Call(NamedTuple):  # not a dataclass: this is built at import, which a warm run pays
    """What FunctionContext and MethodContext share."""

    args: list[list[Expression]]
    arg_types: list[list[Type]]
    arg_kinds: list[list[ArgKind]]
    callee_arg_names: list[str | None]
    context: Context
    api: CheckerPluginInterface

    def actuals(
        self, formals: Iterable[int] | None = None
    ) -> Iterable[tuple[Expression, Type, ArgKind]]:
        indices = range(len(self.args)) if formals is None else formals
        for i in indices:
            if 0 <= i < len(self.args):
                yield from zip(self.args[i], self.arg_types[i], self.arg_kinds[i], strict=False)


CallCheck = Callable[[Call], None]
# (call, sink label, argument, its type, its kind)
SinkCheck = Callable[[Call, str, Expression, Type, ArgKind], None]
ValueCheck = Callable[[CheckerPluginInterface, Context, Type | None], None]
ClassCheck = Callable[[ClassDefContext], None]


class Rules(Protocol):
    """The rules of one `[tool.toolwire]` table, as its checks use them."""

    @property
    def config(self) -> Config: ...

    @property
    def index(self) -> Index:
        """The egress model's names, by role."""

    @property
    def types(self) -> Mapping[str, ResultType]:
        """The result types by every name they have, resolved ones included."""

    @property
    def results(self) -> Collection[str]: ...

    def enabled(self, *codes: str) -> bool: ...

    # -- hooks: a check registers itself on the names the egress model gives -------------

    def on_function(self, fullname: str, check: CallCheck) -> None: ...

    def on_method(self, fullname: str, check: CallCheck) -> None: ...

    def on_sink(self, kind: str, check: SinkCheck) -> None:
        """`check` on each argument of each configured sink of `kind` (wire, egress, state,
        html) that the sink names as its payload."""

    def on_string_method(self, name: str, check: ValueCheck) -> None:
        """`x.name()` for any x: `check` gets the receiver's type."""

    def on_attribute(self, fullname: str, check: ValueCheck) -> None: ...

    def on_class(self, check: ClassCheck, *, result_subclasses_only: bool = False) -> None: ...

    def on_constructed_result(self, register: Callable[[str], None]) -> None:
        """`register(fullname)` for each result type built by factories, also resolved."""

    # -- questions and reports -----------------------------------------------------------

    def fail(self, api: Any, code: str, key: str, context: Context, **fields: str) -> None:
        """Report rule `code` with its catalog message `key`, filled with `fields`."""

    def type_of(self, api: CheckerPluginInterface, expr: Expression) -> Type | None: ...

    def unsafe(self, form: str | None) -> frozenset[str]:
        """The result types whose string form `form` shows more than the wire field."""

    def holds_result(
        self, call: Call, expr: Expression, typ: Type, *, form: str | None = None
    ) -> bool:
        """`expr` (of type `typ`) is or holds a result whose `form` string is unsafe."""

    def shown(self, typ: Type | None) -> str:
        """The name of the result type `typ` is or holds, for messages."""

    def from_artifacts(self, call: Call, expr: Expression, typ: Type) -> bool:
        """An artifact, a run-only field of a result, or a value computed from one."""

    def from_result(self, call: Call, expr: Expression) -> bool:
        """A value computed from a result or its wire field, not through another barrier."""

    def resolved(self, name: str) -> str | None:
        """The fullname of the definition `name` refers to, once mypy has loaded it."""
