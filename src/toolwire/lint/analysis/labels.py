"""What the syntax layer knows about a value, as bit flags.

A value's labels are the union over every way it may have been computed, so a name bound
from `.content` on one path and from a whole result on another carries both.
"""

from __future__ import annotations

RESULT = 1  # a ToolResult
RESULTS = 2  # a sequence or set whose elements are ToolResults
MAPPING = 4  # a mapping whose values are ToolResults
ARTIFACT = 8  # an artifact, `.artifacts`, or a value computed from them
CONTENT = 16  # exactly `<result>.content`
DERIVED = 32  # a string computed from a ToolResult or its content, not `.content` itself
STR = 64  # known to be a str (literal, f-string, `.format`, `.join`, ...)
TOOL = 128  # an instance of a tool class
TOOLS = 256  # a container of tool instances
LOGGER = 512  # a `logging.Logger`
MAYBE_NONE = 1024  # also None (an Optional annotation), so `.content` is not provable
OTHER = 2048  # anything else
SOURCE_OWNER = 4096  # an instance of a class with a source method (`ClientSession`)

NOTHING = 0
WHOLE = RESULT | RESULTS | MAPPING  # holds a whole result somewhere inside
TAINT = WHOLE | ARTIFACT | CONTENT | DERIVED  # kept by "computed from" operations


def holds_result(labels: int) -> bool:
    return bool(labels & WHOLE)


def stringifies_result(labels: int) -> bool:
    """Does `str()` or `format()` of a value with `labels` make text of a result's
    run-only fields? Not when it is a result of a type whose string forms are safe."""
    return bool(labels & WHOLE) and labels & (WHOLE | SAFE_STR) != RESULT | SAFE_STR


def _unsafe(labels: int) -> bool:
    return bool(labels & WHOLE) and not labels & SAFE_STR


def element_of(labels: int) -> int:
    """Labels of one element when iterating or indexing a value."""
    out = labels & ARTIFACT
    if labels & RESULTS:
        out |= RESULT | (labels & SAFE_STR)
    if labels & TOOLS:
        out |= TOOL
    out = out or OTHER
    if labels & ELEMENTS:  # the element is a tuple of that shape
        out |= TUPLE | (labels & _EACH_FIELDS) >> (_EACH - _OWN)
    return out


def derived(labels: int) -> int:
    """A new value computed from `labels` (a string built around it, a call of it)."""
    out = labels & ARTIFACT
    if labels & (WHOLE | CONTENT | DERIVED):
        out |= DERIVED
    return out | OTHER


# Above the flags, the shape of tuples: what each position of a tuple holds (`TUPLE`, for
# `(call.id, result)`), or of each element of a container when the elements are tuples of
# a known shape (`ELEMENTS`, for `[(c.id, tool.execute(c)) ...]`, `enumerate(...)`,
# `zip(...)`, `.items()`). Position fields are valid only when their flag is set, and
# `join` drops them when only one side has them, so a path without a shape is never lost.
# With WHOLE: every result the value may be or hold is of a type with a safe `str()` and
# `format()` (`safe-strings` in the model), so they make text of only its wire field.
# In BASE so that it rides into tuple positions; `join` keeps it only when both sides
# that hold a result have it.
SAFE_STR = 1 << 13
BASE = (1 << 14) - 1
TUPLE = 1 << 14
ELEMENTS = 1 << 15
POSITIONS = 4
_WIDTH = 14
_OWN = 16
_EACH = _OWN + POSITIONS * _WIDTH
_FIELDS = (1 << (POSITIONS * _WIDTH)) - 1
_OWN_FIELDS = _FIELDS << _OWN
_EACH_FIELDS = _FIELDS << _EACH


def join(a: int, b: int) -> int:
    """Labels of a value computed one way or the other."""
    out = a | b
    differ = a ^ b
    if differ & SAFE_STR and (_unsafe(a) or _unsafe(b)):
        out &= ~SAFE_STR
    if differ & TUPLE:
        out &= ~(TUPLE | _OWN_FIELDS)
    if differ & ELEMENTS:
        out &= ~(ELEMENTS | _EACH_FIELDS)
    return out


def _fields(parts: list[int]) -> int:
    out = 0
    for index, part in enumerate(parts):
        out |= (part & BASE) << (_WIDTH * index)
    return out


def _parts(fields: int, arity: int) -> list[int]:
    return [(fields >> (_WIDTH * index)) & BASE or OTHER for index in range(arity)]


def a_tuple(parts: list[int]) -> int:
    """Position fields of a tuple of `parts` (nothing beyond POSITIONS)."""
    return TUPLE | _fields(parts) << _OWN if 0 < len(parts) <= POSITIONS else NOTHING


def of_tuples(parts: list[int]) -> int:
    """Position fields of a container whose elements are tuples of `parts`."""
    return ELEMENTS | _fields(parts) << _EACH if 0 < len(parts) <= POSITIONS else NOTHING


def shape_of(labels: int) -> int:
    """The element shape of a container, to carry over to a copy of it."""
    return labels & (ELEMENTS | _EACH_FIELDS) if labels & ELEMENTS else NOTHING


def tuple_parts(labels: int, arity: int) -> list[int] | None:
    """Labels of each position of a tuple unpacked into `arity` names, when known."""
    if not labels & TUPLE or not 0 < arity <= POSITIONS:
        return None
    return _parts(labels >> _OWN, arity)


def element_parts(labels: int, arity: int) -> list[int] | None:
    """Labels of each position of a container's elements unpacked into `arity` names."""
    if not labels & ELEMENTS or not 0 < arity <= POSITIONS:
        return None
    return _parts(labels >> _EACH, arity)


# Above the shapes, one bit per class of the module: an instance of it, so that its
# annotated fields (dataclass, NamedTuple, TypedDict, class attributes) and the attributes
# its methods assign are known when read through any name bound to the instance.
_INSTANCE = _EACH + POSITIONS * _WIDTH


def instance(index: int) -> int:
    return 1 << (_INSTANCE + index)


def instances(labels: int) -> list[int]:
    """Indices of the classes whose instance `labels` may be."""
    bits = labels >> _INSTANCE
    out = []
    index = 0
    while bits:
        if bits & 1:
            out.append(index)
        bits >>= 1
        index += 1
    return out
