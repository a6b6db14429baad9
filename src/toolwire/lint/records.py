"""`record`: a frozen, slotted dataclass whose methods are not compiled from source text.

On Python 3.11 `dataclasses.dataclass` compiles each method it writes (`__init__`,
`__eq__`, `__hash__`, `__setattr__`...) from text when the class is made: 2 ms of every
start-up for the model's thirty fields. A record's methods are the shared functions below,
which read the class's fields; the class is still a dataclass (`fields`, `replace`,
`is_dataclass` and the cache's canonical form read it), with the same equality, hash,
order, repr, immutability and pickling. Its `__init__` takes arguments as a dataclass's
does; it runs a loop, not generated code, so it is for classes built a few times per run
or per finding, not per node.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
_MISSING = dataclasses.MISSING


class _Shape:
    """What the shared methods need of a record class, worked out on first use."""

    __slots__ = ("compared", "fields", "init", "later", "shown")

    def __init__(self, cls: type) -> None:
        fields = dataclasses.fields(cls)
        self.fields = tuple(f.name for f in fields)
        self.init = tuple(f for f in fields if f.init)
        self.later = tuple(f for f in fields if not f.init)
        self.shown = tuple(f.name for f in fields if f.repr)
        # what equality, order and the hash read: a tuple (attrgetter of two names or more)
        compared = [f.name for f in fields if f.compare]
        self.compared: Callable[[Any], tuple[Any, ...]] = (
            attrgetter(*compared)
            if len(compared) > 1
            else lambda o: tuple(getattr(o, name) for name in compared)
        )


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type) -> _Shape:
    found = _SHAPES.get(cls)
    if found is None:
        found = _SHAPES[cls] = _Shape(cls)
    return found


def _default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not _MISSING:
        return field.default
    if field.default_factory is not _MISSING:
        return field.default_factory()
    return _MISSING


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    shape = _shape(cls)
    if len(args) > len(shape.init):
        raise TypeError(f"{cls.__name__}() takes {len(shape.init)} arguments, {len(args)} given")
    for position, field in enumerate(shape.init):
        if position < len(args):
            if field.name in kwargs:
                raise TypeError(f"{cls.__name__}() got multiple values for {field.name!r}")
            value = args[position]
        elif field.name in kwargs:
            value = kwargs.pop(field.name)
        else:
            value = _default(field)
            if value is _MISSING:
                raise TypeError(f"{cls.__name__}() missing argument {field.name!r}")
        object.__setattr__(self, field.name, value)
    if kwargs:
        raise TypeError(f"{cls.__name__}() got an unexpected argument {next(iter(kwargs))!r}")
    for field in shape.later:
        object.__setattr__(self, field.name, _default(field))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shape(type(self)).shown)
    return f"{type(self).__qualname__}({shown})"


def _compared(self: Any) -> tuple[Any, ...]:
    """The values equality, order and the hash read; the class keeps the getter after the
    first call (sorting the findings of a run compares them often)."""
    compared = _shape(type(self)).compared
    type(self)._record_compared = staticmethod(compared)  # a lambda must not bind to self
    return compared(self)


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    compared = self._record_compared
    return compared(self) == compared(other)


def _hash(self: Any) -> int:
    return hash(self._record_compared(self))


def _order(compare: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]) -> Any:
    def method(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = self._record_compared
        return compare(compared(self), compared(other))

    return method


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in _shape(type(self)).fields]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(_shape(type(self)).fields, state, strict=True):
        object.__setattr__(self, name, value)


_METHODS: dict[str, Any] = {
    "_record_compared": staticmethod(_compared),
    "__init__": _init,
    "__repr__": _repr,
    "__eq__": _eq,
    "__hash__": _hash,
    "__setattr__": _setattr,
    "__delattr__": _delattr,
    "__getstate__": _getstate,
    "__setstate__": _setstate,
}
_ORDER: dict[str, Any] = {
    "__lt__": _order(operator.lt),
    "__le__": _order(operator.le),
    "__gt__": _order(operator.gt),
    "__ge__": _order(operator.ge),
}


@overload
def record(cls: type[_T], /) -> type[_T]: ...
@overload
def record(*, order: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[_T] | None = None, /, *, order: bool = False) -> Any:
    """`@dataclass(frozen=True, slots=True[, order=True])`, its methods shared."""

    def make(cls: type[_T]) -> type[_T]:
        for name, method in (_METHODS | _ORDER if order else _METHODS).items():
            if name not in cls.__dict__:  # a method of the class's own (a cached hash) stays
                setattr(cls, name, method)
        return dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)

    return make if cls is None else make(cls)
