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

NOTHING = 0
WHOLE = RESULT | RESULTS | MAPPING  # holds a whole result somewhere inside
TAINT = WHOLE | ARTIFACT | CONTENT | DERIVED  # kept by "computed from" operations


def holds_result(labels: int) -> bool:
    return bool(labels & WHOLE)


def element_of(labels: int) -> int:
    """Labels of one element when iterating or indexing a value."""
    out = labels & ARTIFACT
    if labels & RESULTS:
        out |= RESULT
    if labels & TOOLS:
        out |= TOOL
    return out or OTHER


def derived(labels: int) -> int:
    """A new value computed from `labels` (a string built around it, a call of it)."""
    out = labels & ARTIFACT
    if labels & (WHOLE | CONTENT | DERIVED):
        out |= DERIVED
    return out | OTHER
