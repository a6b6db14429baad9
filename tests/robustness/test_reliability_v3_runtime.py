"""Reliability round 3, runtime: the seam (`toolwire.bounds.bound`) never raises on data.

Reproducer: shared/repro/reliability-v3/16-bound-hostile-data-escapes-seam.sh.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire.bounds import OMITTED_LABEL, bound
from toolwire.result import ToolArtifact, ToolResult


class Boom(Exception):
    """Not one of TypeError/ValueError/RecursionError."""


class ClosedRow(Mapping[str, Any]):
    """A lazy DB row proxy whose session is gone: every read raises."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("session closed")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("session closed")

    def __len__(self) -> int:
        return 1


class LazyRows(list[Any]):
    """A list whose iteration is a generator that fails half-way."""

    def __iter__(self) -> Iterator[Any]:
        yield 1
        raise KeyError("row 2")


class BadKey:
    """A dict key that cannot be hashed after all."""

    def __hash__(self) -> int:
        raise Boom("hash")


class KeyedBy(Mapping[Any, Any]):
    """One item under `key`, which no dict literal could hold; its `__len__` raises."""

    def __init__(self, key: object, value: object = 1) -> None:
        self.key, self.value = key, value

    def __getitem__(self, key: object) -> Any:
        return self.value

    def __iter__(self) -> Iterator[Any]:
        return iter([self.key])

    def __len__(self) -> int:
        raise Boom("len")


class Masked:
    """Lies about its class, and the lie raises (isinstance() asks for it)."""

    @property  # type: ignore[misc]
    def __class__(self) -> NoReturn:  # type: ignore[override]
        raise Boom("class")


class HostileStr(str):
    """A str whose own methods all raise; its data is plain text."""

    def encode(self, *args: object, **kwargs: object) -> NoReturn:
        raise Boom("encode")

    def __str__(self) -> NoReturn:
        raise Boom("str")

    def __len__(self) -> NoReturn:
        raise Boom("len")

    def __hash__(self) -> NoReturn:
        raise Boom("hash")

    def __eq__(self, other: object) -> NoReturn:
        raise Boom("eq")

    def __iter__(self) -> NoReturn:
        raise Boom("iter")


class HostileBytes(bytes):
    def __bytes__(self) -> NoReturn:
        raise Boom("bytes")

    def decode(self, *args: object, **kwargs: object) -> NoReturn:
        raise Boom("decode")


def raising_data() -> list[Any]:
    """Artifact data that raises a non-TypeError/ValueError while walked or encoded."""
    return [
        {"rows": ClosedRow()},
        {"rows": LazyRows([1, 2])},
        KeyedBy(BadKey()),
        [1, Masked()],
        {"nested": [{"deep": ClosedRow()}]},
    ]


def plain(value: object) -> bool:
    """Every str in the tree is a plain str (the wire never gets a subclass)."""
    if isinstance(value, str):
        return type(value) is str
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(item) for item in value)
    return True


def check_output(out: ToolResult) -> None:
    json.dumps([a.to_dict() for a in out.artifacts], ensure_ascii=False, allow_nan=False)
    assert type(out.content) is str
    for artifact in out.artifacts:
        assert type(artifact.label) is str and plain(artifact.data)


@pytest.mark.parametrize(
    "data", raising_data(), ids=["closed-row", "lazy-rows", "bad-key", "masked-class", "nested"]
)
def test_hostile_artifact_data_is_replaced_by_the_policy_and_never_raises(data: Any) -> None:
    good = ToolArtifact.text("summary", "fine")
    later = ToolArtifact.text("later", "also fine")
    bad = ToolArtifact("table", HostileStr("rows"), data)
    result = ToolResult.text(HostileStr("ok"), good, bad, later)

    collapsed = bound(result)
    assert collapsed.content == "ok" and type(collapsed.content) is str
    [marker] = collapsed.artifacts
    assert marker.label == OMITTED_LABEL
    assert marker.data == {"text": "could not be encoded"}

    dropped = bound(result, policy="drop")
    assert dropped.artifacts == (good, later)
    check_output(collapsed)
    check_output(dropped)


def test_hostile_strings_are_read_as_their_plain_data() -> None:
    artifact = ToolArtifact(
        "text",
        HostileStr("label"),
        KeyedBy(HostileStr("k"), [HostileStr("v\udcff"), HostileBytes(b"\xff")]),
    )
    # The bytes leaf stays unencodable (json has no bytes): the policy replaces it.
    result = ToolResult.text(HostileStr("body"), artifact)
    collapsed, dropped = bound(result), bound(result, policy="drop")
    assert [a.label for a in collapsed.artifacts] == [OMITTED_LABEL] and dropped.artifacts == ()
    for out in (collapsed, dropped):
        assert out.content == "body" and type(out.content) is str
        check_output(out)
    clean = ToolArtifact(
        "text", HostileStr("label"), KeyedBy(HostileStr("k"), HostileStr("v\udcff"))
    )
    [kept] = bound(ToolResult.text("x", clean), policy="drop").artifacts
    assert kept.label == "label" and kept.data == {"k": "v\ufffd"}

    # Only Exception is data trouble: a Ctrl-C while the data is walked still stops the run.
    class Interrupted(ClosedRow):
        def __iter__(self) -> Iterator[str]:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bound(ToolResult.text("ok", ToolArtifact("t", "l", Interrupted())), policy="drop")


def _hostile_leaf() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(ClosedRow),
        st.builds(LazyRows, st.lists(st.integers(), max_size=2)),
        st.builds(lambda: KeyedBy(BadKey())),
        st.builds(Masked),
        st.builds(HostileStr, st.text(max_size=5)),
        st.builds(lambda t: KeyedBy(HostileStr(t)), st.text(max_size=3)),
    )


_leaves = st.one_of(st.text(max_size=5), st.integers(), st.none(), st.booleans(), _hostile_leaf())
_trees = st.recursive(
    _leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.tuples(children, children),
        st.dictionaries(st.text(max_size=3), children, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.lists(_trees, min_size=1, max_size=4), content=st.text(max_size=10))
def test_the_seam_never_raises_and_keeps_the_good_artifacts(data: list[Any], content: str) -> None:
    goods = [ToolArtifact.text(f"good-{i}", f"row {i}") for i in range(len(data))]
    mixed: list[ToolArtifact] = []
    for good, tree in zip(goods, data, strict=True):
        mixed += [good, ToolArtifact("x", HostileStr("hostile"), tree)]
    result = ToolResult.text(HostileStr(content), *mixed)
    collapsed = bound(result)
    assert collapsed.content == content
    check_output(collapsed)
    if collapsed.artifacts[0].label == OMITTED_LABEL:
        assert len(collapsed.artifacts) == 1
    else:
        assert len(collapsed.artifacts) == len(mixed)
    dropped = bound(result, policy="drop")
    check_output(dropped)
    assert [a for a in dropped.artifacts if a.label.startswith("good-")] == goods
