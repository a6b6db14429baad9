"""ToolResult / ToolArtifact: construction, immutability, no string form, wire shapes."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolwire
from toolwire.result import ArtifactType, ToolArtifact, ToolResult

SECRET = "s3cr3t-api-key-0xDEADBEEF"


def secret_result() -> ToolResult:
    return ToolResult.text(
        "3 users found",
        ToolArtifact.table("Users", ["name", "token"], [["ann", SECRET]]),
        ToolArtifact.text("Notes", f"token is {SECRET}"),
        ToolArtifact("link", "Docs", {"url": f"https://x.test/?k={SECRET}"}),
    )


# --- package surface -------------------------------------------------------------


def test_package_exports() -> None:
    assert toolwire.ToolResult is ToolResult
    assert toolwire.ToolArtifact is ToolArtifact
    assert toolwire.ArtifactType is ArtifactType
    assert callable(toolwire.bounds.bound)


# --- construction ----------------------------------------------------------------


def test_text_factory() -> None:
    table = ToolArtifact.table("T", ["a"], [["1"]])
    result = ToolResult.text("hello", table)
    assert result.content == "hello"
    assert result.is_error is False
    assert result.artifacts == (table,)
    assert isinstance(result.artifacts, tuple)


def test_text_without_artifacts() -> None:
    assert ToolResult.text("x").artifacts == ()


def test_error_factory_has_no_artifacts() -> None:
    result = ToolResult.error("boom")
    assert result.content == "boom"
    assert result.is_error is True
    assert result.artifacts == ()


def test_error_refuses_artifacts() -> None:
    with pytest.raises(TypeError):
        ToolResult.error("boom", ToolArtifact.text("a", "b"))  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ToolResult.error(content="boom")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "call",
    [
        lambda: ToolResult(),
        lambda: ToolResult("x"),
        lambda: ToolResult("x", False, ()),
        lambda: ToolResult(content="x", is_error=False, artifacts=()),
        lambda: ToolResult.__new__(ToolResult),
    ],
)
def test_direct_construction_raises(call: Any) -> None:
    with pytest.raises(TypeError, match=r"ToolResult\.text"):
        call()


def test_subclassing_raises() -> None:
    with pytest.raises(TypeError, match="final"):

        class Sub(ToolResult):  # type: ignore[misc]
            pass


def test_is_typing_final() -> None:
    assert getattr(ToolResult, "__final__", False) is True


@pytest.mark.parametrize("content", [None, 1, b"bytes", ["x"]])
def test_content_must_be_str(content: Any) -> None:
    with pytest.raises(TypeError, match="content must be a str"):
        ToolResult.text(content)
    with pytest.raises(TypeError, match="content must be a str"):
        ToolResult.error(content)


@pytest.mark.parametrize("artifact", ["text", {"type": "text"}, None, ("t", "l", {})])
def test_artifacts_must_be_tool_artifacts(artifact: Any) -> None:
    with pytest.raises(TypeError, match="ToolArtifact"):
        ToolResult.text("x", ToolArtifact.text("a", "b"), artifact)


# --- immutability ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["content", "is_error", "artifacts", "extra"])
def test_setattr_raises(name: str) -> None:
    result = ToolResult.text("x")
    with pytest.raises(AttributeError, match="immutable"):
        setattr(result, name, "y")
    assert result.content == "x"


@pytest.mark.parametrize("name", ["content", "is_error", "artifacts"])
def test_delattr_raises(name: str) -> None:
    result = ToolResult.text("x")
    with pytest.raises(AttributeError, match="immutable"):
        delattr(result, name)


def test_object_setattr_cannot_add_attributes() -> None:
    result = ToolResult.text("x")
    with pytest.raises(AttributeError):
        object.__setattr__(result, "extra", 1)
    assert not hasattr(result, "__dict__")


def test_artifact_is_immutable() -> None:
    artifact = ToolArtifact.text("a", "b")
    with pytest.raises(AttributeError):
        artifact.label = "c"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del artifact.data


# --- no string form --------------------------------------------------------------


@pytest.mark.parametrize(
    "stringify",
    [
        str,
        bytes,
        lambda r: f"{r}",
        lambda r: f"{r:>10}",
        lambda r: format(r),
        lambda r: format(r, ""),
        lambda r: format(r, "s"),
        lambda r: "{}".format(r),  # noqa: UP032
        lambda r: "{:x}".format(r),  # noqa: UP032
        lambda r: "%s" % r,  # noqa: UP031
        lambda r: r.__str__(),
    ],
)
def test_no_string_form(stringify: Any) -> None:
    with pytest.raises(TypeError, match=r"\.content") as caught:
        stringify(secret_result())
    assert SECRET not in str(caught.value)


def test_error_result_has_no_string_form_either() -> None:
    with pytest.raises(TypeError, match=r"\.content"):
        str(ToolResult.error("boom"))


def test_repr_shows_shape_but_never_data() -> None:
    text = repr(secret_result())
    assert SECRET not in text
    assert "is_error=False" in text
    assert "'3 users found'" in text
    assert "artifacts=3" in text
    for part in ("'table'", "'Users'", "'text'", "'Notes'", "'link'", "'Docs'"):
        assert part in text
    assert SECRET not in ascii(secret_result())
    assert SECRET not in f"{secret_result()!r}"


def test_repr_shortens_long_content() -> None:
    text = repr(ToolResult.error("x" * 10_000))
    assert "is_error=True" in text
    assert "(10000 chars)" in text
    assert len(text) < 200


def test_repr_of_containers_is_safe() -> None:
    assert SECRET not in repr([secret_result()])
    assert SECRET not in str({"r": secret_result()})


def test_artifact_repr_hides_data() -> None:
    artifact = ToolArtifact.text("Key", SECRET)
    assert SECRET not in repr(artifact)
    assert SECRET not in str(artifact)
    assert repr(artifact) == "ToolArtifact(type='text', label='Key')"


# --- secrets stay off the wire shapes ---------------------------------------------


def test_secret_never_in_content_or_flowdrop_data() -> None:
    result = secret_result()
    assert SECRET not in result.content
    flowdrop = result.to_flowdrop()
    assert SECRET not in repr(flowdrop["data"])
    assert SECRET not in repr(flowdrop["error"])


def test_secret_is_in_audit_record() -> None:
    assert SECRET in repr(secret_result().audit_record())


# --- to_flowdrop -----------------------------------------------------------------


def test_flowdrop_plain_result_has_exactly_three_keys() -> None:
    shape = ToolResult.text("ok").to_flowdrop()
    assert shape == {"success": True, "data": {"content": "ok"}, "error": None}
    assert list(shape) == ["success", "data", "error"]


def test_flowdrop_with_artifacts() -> None:
    link = ToolArtifact("link", "Example", {"url": "https://example.com"})
    table = ToolArtifact.table("T", ["a"], [["1"]])
    shape = ToolResult.text("ok", link, table).to_flowdrop()
    assert shape == {
        "success": True,
        "data": {"content": "ok"},
        "error": None,
        "artifacts": [
            {"type": "link", "payload": {"url": "https://example.com"}},
            {"type": "table", "payload": {"columns": ["a"], "rows": [["1"]]}},
        ],
    }
    assert "artifacts" not in shape["data"]
    assert type(shape["artifacts"][1]["type"]) is str


def test_flowdrop_error() -> None:
    shape = ToolResult.error("boom").to_flowdrop()
    assert shape == {"success": False, "data": None, "error": "boom"}
    assert "artifacts" not in shape


# --- audit_record ----------------------------------------------------------------


def test_audit_record() -> None:
    table = ToolArtifact.table("T", ["a", "b"], [["1", "2"]])
    assert ToolResult.text("ok", table).audit_record() == {
        "content": "ok",
        "is_error": False,
        "artifacts": [
            {"type": "table", "label": "T", "data": {"columns": ["a", "b"], "rows": [["1", "2"]]}}
        ],
    }
    assert ToolResult.error("boom").audit_record() == {
        "content": "boom",
        "is_error": True,
        "artifacts": [],
    }


# --- equality, hashing, copying, pickling ------------------------------------------


def test_value_equality_and_hash() -> None:
    a = ToolResult.text("x", ToolArtifact.text("l", "t"))
    b = ToolResult.text("x", ToolArtifact.text("l", "t"))
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != ToolResult.text("x")
    assert a != ToolResult.text("x", ToolArtifact.text("l", "other"))
    assert ToolResult.text("x") != ToolResult.error("x")
    assert a != "x"
    assert a.__eq__("x") is NotImplemented


def test_artifact_equality_and_hash() -> None:
    assert ToolArtifact("table", "l", {}) == ToolArtifact(ArtifactType.TABLE, "l", {})
    assert hash(ToolArtifact("x", "l", {"a": 1})) == hash(ToolArtifact("x", "l", {"a": 1}))
    assert ToolArtifact("x", "l", {"a": 1}) != ToolArtifact("x", "l", {"a": 2})


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_result_is_not_picklable(protocol: int) -> None:
    with pytest.raises(TypeError, match="resumable"):
        pickle.dumps(secret_result(), protocol=protocol)
    with pytest.raises(TypeError, match="resumable"):
        pickle.dumps(ToolResult.text("plain"), protocol=protocol)


def test_artifact_is_not_picklable() -> None:
    with pytest.raises(TypeError, match="resumable"):
        pickle.dumps(ToolArtifact.text("a", "b"))
    with pytest.raises(TypeError, match="resumable"):
        ToolArtifact.text("a", "b").__reduce__()
    with pytest.raises(TypeError, match="resumable"):
        ToolResult.text("a").__reduce__()


def test_copy_and_deepcopy() -> None:
    result = secret_result()
    assert copy.copy(result) is result
    assert copy.copy(result.artifacts[0]) is result.artifacts[0]
    clone = copy.deepcopy(result)
    assert clone == result
    assert clone.artifacts[0].data is not result.artifacts[0].data


# --- ArtifactType / ToolArtifact -----------------------------------------------------


def test_artifact_type_values() -> None:
    assert ArtifactType.TABLE.value == "table"
    assert ArtifactType("text") is ArtifactType.TEXT
    assert str(ArtifactType.TABLE) == "table"
    assert isinstance(ArtifactType.TEXT, str)


def test_known_type_is_normalised_to_enum() -> None:
    assert ToolArtifact("table", "l", {}).type is ArtifactType.TABLE
    assert ToolArtifact(ArtifactType.TEXT, "l", {}).type is ArtifactType.TEXT


def test_open_type_set() -> None:
    artifact = ToolArtifact("chart", "Sales", {"points": [1, 2]})
    assert artifact.type == "chart"
    assert type(artifact.type) is str
    assert artifact.to_dict() == {"type": "chart", "label": "Sales", "data": {"points": [1, 2]}}


def test_str_subclass_type_becomes_plain_str() -> None:
    class Odd(str):
        def __str__(self) -> str:
            return "not-this"

    artifact = ToolArtifact(Odd("chart"), "l", {})
    assert type(artifact.type) is str
    assert artifact.to_dict()["type"] == "chart"


def test_empty_type_raises() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        ToolArtifact("", "l", {})


@pytest.mark.parametrize("kind", [None, 1, b"table", ArtifactType])
def test_non_str_type_raises(kind: Any) -> None:
    with pytest.raises(TypeError, match="type must be a str"):
        ToolArtifact(kind, "l", {})


@pytest.mark.parametrize("label", [None, 1, b"label"])
def test_non_str_label_raises(label: Any) -> None:
    with pytest.raises(TypeError, match="label must be a str"):
        ToolArtifact("text", label, {})
    with pytest.raises(TypeError, match="label must be a str"):
        ToolArtifact.text(label, "x")


def test_table_factory() -> None:
    artifact = ToolArtifact.table("Users", ("name", "age"), [["ann", "3"], ("bob", "4")])
    assert artifact.type is ArtifactType.TABLE
    assert artifact.label == "Users"
    assert artifact.data == {"columns": ["name", "age"], "rows": [["ann", "3"], ["bob", "4"]]}


def test_table_copies_its_input() -> None:
    columns, rows = ["a"], [["1"]]
    artifact = ToolArtifact.table("T", columns, rows)
    columns.append("b")
    rows[0].append("2")
    assert artifact.data == {"columns": ["a"], "rows": [["1"]]}


def test_table_without_rows() -> None:
    assert ToolArtifact.table("T", ["a"], []).data == {"columns": ["a"], "rows": []}


@pytest.mark.parametrize(
    ("columns", "rows", "message"),
    [
        ("ab", [], "columns must be a list of str"),
        (None, [], "columns must be a list of str"),
        (["a", 1], [], r"columns\[1\] must be a str"),
        (["a"], "x", "rows must be a list of lists"),
        (["a"], None, "rows must be a list of lists"),
        (["a"], ["x"], r"rows\[0\] must be a list of str"),
        (["a"], [[1]], r"rows\[0\]\[0\] must be a str"),
        (["a"], [["1"], [None]], r"rows\[1\]\[0\] must be a str"),
    ],
)
def test_table_type_errors(columns: Any, rows: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        ToolArtifact.table("T", columns, rows)


@pytest.mark.parametrize("rows", [[["1"]], [["1", "2", "3"]], [["1", "2"], []]])
def test_table_width_mismatch(rows: list[list[str]]) -> None:
    with pytest.raises(ValueError, match=r"rows\[\d\] has \d cells but there are 2 columns"):
        ToolArtifact.table("T", ["a", "b"], rows)


def test_text_factory_artifact() -> None:
    artifact = ToolArtifact.text("Notes", "hello")
    assert artifact.type is ArtifactType.TEXT
    assert artifact.data == {"text": "hello"}
    with pytest.raises(TypeError, match="text must be a str"):
        ToolArtifact.text("Notes", b"hello")  # type: ignore[arg-type]


@settings(deadline=None)
@given(st.text(), st.booleans(), st.lists(st.text(), max_size=3))
def test_audit_record_round_trips_fields(content: str, is_error: bool, labels: list[str]) -> None:
    artifacts = [ToolArtifact.text(label, label) for label in labels]
    result = ToolResult.error(content) if is_error else ToolResult.text(content, *artifacts)
    record = result.audit_record()
    assert record["content"] == content
    assert record["is_error"] is is_error
    assert record["artifacts"] == ([] if is_error else [a.to_dict() for a in artifacts])
    assert ("artifacts" in result.to_flowdrop()) is (not is_error and bool(labels))
