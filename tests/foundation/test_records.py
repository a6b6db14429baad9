"""`records.record` behaves as the frozen, slotted dataclass it stands for (the model, the
config and the findings are records): each test holds a record beside that dataclass."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from toolwire.lint.config import Config
from toolwire.lint.findings import Finding
from toolwire.lint.records import record


@record
class Pair:
    """A record of the shapes the linter's records use."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    items: list[int] = field(default_factory=list)
    note: str = field(default="", compare=False)
    later: int = field(default=7, init=False, repr=False)


@dataclass(frozen=True, slots=True)
class Plain:
    """The same, as a dataclass."""

    name: str
    count: int = 0
    tags: tuple[str, ...] = ()
    items: list[int] = field(default_factory=list)
    note: str = field(default="", compare=False)
    later: int = field(default=7, init=False, repr=False)


def both(*args: object, **kwargs: object) -> tuple[object, object]:
    return Pair(*args, **kwargs), Plain(*args, **kwargs)  # type: ignore[arg-type]


def test_a_record_is_built_shown_and_compared_as_its_dataclass() -> None:
    mine, theirs = both("a", 2, tags=("x",), note="n")
    assert repr(mine) == repr(theirs).replace("Plain", "Pair")
    assert [f.name for f in dataclasses.fields(Pair)] == [f.name for f in dataclasses.fields(Plain)]
    assert dataclasses.astuple(mine) == dataclasses.astuple(theirs)  # type: ignore[call-overload]
    assert Pair("a", note="x") == Pair("a", note="y")  # `compare=False` is not compared
    assert Pair("a") != Pair("b") and Pair("a") != Plain("a")  # type: ignore[comparison-overlap]
    for unhashable in both("a"):  # a list among the compared fields, as a dataclass
        with pytest.raises(TypeError):
            hash(unhashable)
    assert Pair("a").items is not Pair("a").items  # a default factory is called per record
    assert mine.later == 7  # type: ignore[attr-defined]


def test_a_record_is_immutable_slotted_and_replaceable() -> None:
    mine = Pair("a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.count = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del mine.count
    assert not hasattr(mine, "__dict__")
    changed = dataclasses.replace(mine, count=3)
    assert (changed.name, changed.count, mine.count) == ("a", 3, 1)


@pytest.mark.parametrize(
    ("args", "kwargs", "problem"),
    [((), {}, "missing"), (("a",), {"name": "b"}, "multiple"), (("a",), {"nope": 1}, "unexpected")],
)
def test_a_record_refuses_the_arguments_its_dataclass_refuses(
    args: tuple[object, ...], kwargs: dict[str, object], problem: str
) -> None:
    with pytest.raises(TypeError):
        Plain(*args, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=problem):
        Pair(*args, **kwargs)  # type: ignore[arg-type]


def test_findings_order_equality_and_pickling_are_the_dataclass_ones() -> None:
    a = Finding("a.py", 1, 2, "TW301", "m", 1, 5, "wire-content")
    b = dataclasses.replace(a, column=3)
    c = dataclasses.replace(a, problem="input")
    assert sorted([b, a]) == [a, b] and a < b and a <= b and b > a and b >= a
    assert a == c and a <= c and a >= c and not a < c  # `problem` is not compared
    with pytest.raises(TypeError):
        assert a < 3  # type: ignore[operator]
    for copied in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
        assert copied == c and copied.problem == "input"


def test_a_config_survives_pickling_to_a_worker_with_its_hash() -> None:
    config = Config(select=("TW3",))
    back = pickle.loads(pickle.dumps(config))
    assert back == config and hash(back) == hash(config) and back.select == ("TW3",)
    assert config.with_overrides(ignore=("TW301",)).ignore == ("TW301",)


@record(order=True)
class One:
    """A record that compares one field: its getter is a plain function, not an attrgetter."""

    name: str
    note: str = field(default="", compare=False)


def test_a_record_of_one_compared_field_compares_hashes_and_orders_as_a_dataclass() -> None:
    @dataclass(frozen=True, slots=True, order=True)
    class PlainOne:
        name: str
        note: str = field(default="", compare=False)

    for kind in (One, PlainOne):
        a, b = kind("a", note="x"), kind("b")
        assert a == kind("a") and a != b and a < b and b >= a
        assert hash(a) == hash(kind("a"))
        assert hash(a) == hash(a)  # the second call reads the getter the class kept
