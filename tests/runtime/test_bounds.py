"""toolwire.bounds: UTF-8 coercion, the content cap and the artifact budget."""

from __future__ import annotations

import json
import logging
import math
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire import bounds
from toolwire.bounds import (
    OMITTED_LABEL,
    bound,
    bound_artifacts,
    bound_content,
    coerce_utf8,
    truncation_marker,
)
from toolwire.result import ArtifactType, ToolArtifact, ToolResult

SECRET = "s3cr3t-api-key-0xDEADBEEF"


def nbytes(text: str) -> int:
    return len(text.encode("utf-8"))


def serialised(artifacts: tuple[ToolArtifact, ...]) -> int:
    return nbytes(json.dumps([a.to_dict() for a in artifacts], ensure_ascii=False))


def is_valid_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def blob(label: str, size: int) -> ToolArtifact:
    return ToolArtifact.text(label, "x" * size)


# --- coerce_utf8 -------------------------------------------------------------------


def test_bytes_are_decoded_with_replacement() -> None:
    # The PHP "\xff" case: an invalid byte, not the character ÿ.
    assert coerce_utf8(b"\xff") == "\ufffd"
    assert coerce_utf8(b"ok \xff\xfe end") == "ok \ufffd\ufffd end"
    assert coerce_utf8(b"caf\xc3\xa9") == "café"
    assert coerce_utf8(bytearray(b"a\xff")) == "a\ufffd"


def test_str_xff_is_a_valid_character() -> None:
    assert coerce_utf8("\xff") == "ÿ"
    assert coerce_utf8("\xff").encode("utf-8") == b"\xc3\xbf"


def test_valid_str_is_returned_as_is() -> None:
    text = "héllo 😀 wörld"
    assert coerce_utf8(text) is text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("\udcff", "\ufffd"),
        ("\ud800", "\ufffd"),
        ("a\udfffb", "a\ufffdb"),
        ("\ud800\ud800", "\ufffd\ufffd"),
        ("\ude00\ud83d", "\ufffd\ufffd"),  # reversed pair is two lone halves
        ("x\ud83d\ude00y", "x😀y"),  # a pair left split (e.g. by JSON) is joined
    ],
)
def test_lone_surrogates_are_replaced(raw: str, expected: str) -> None:
    assert coerce_utf8(raw) == expected


def test_surrogateescaped_bytes_are_decoded() -> None:
    escaped = b"caf\xc3\xa9 \xff".decode("ascii", "surrogateescape")
    assert coerce_utf8(escaped) == "café \ufffd"
    assert coerce_utf8(b"\xff\xfe".decode("utf-8", "surrogateescape")) == "\ufffd\ufffd"


@pytest.mark.parametrize("value", [None, 1, ["x"], memoryview(b"x")])
def test_coerce_rejects_other_types(value: Any) -> None:
    with pytest.raises(TypeError, match="expected str or bytes"):
        coerce_utf8(value)


@settings(deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF)))
def test_coerce_str_always_valid(text: str) -> None:
    coerced = coerce_utf8(text)
    assert is_valid_utf8(coerced)
    if is_valid_utf8(text):
        assert coerced == text
    assert coerce_utf8(coerced) == coerced


@given(st.binary())
def test_coerce_bytes_matches_replace_decoding(data: bytes) -> None:
    assert coerce_utf8(data) == data.decode("utf-8", "replace")


# --- bound_content -----------------------------------------------------------------


def test_marker_text() -> None:
    assert truncation_marker(50_000) == "\n…[tool result truncated at 50000 bytes]"


def test_default_limit_is_50000() -> None:
    assert bounds.DEFAULT_LIMIT == 50_000
    assert bound_content("a" * 50_000) == "a" * 50_000
    assert nbytes(bound_content("a" * 50_001)) == 50_000


def test_exactly_at_limit_is_untruncated() -> None:
    text = "a" * 100
    assert bound_content(text, 100) == text


def test_multibyte_exactly_at_limit_is_untruncated() -> None:
    text = "é" * 50  # 100 bytes
    assert bound_content(text, 100) == text


def test_oversize_ascii_is_exactly_the_limit() -> None:
    text = "HEAD" + "x" * 200_000
    bounded = bound_content(text)
    assert nbytes(bounded) == 50_000
    assert bounded.startswith("HEAD")
    assert bounded.endswith(truncation_marker(50_000))
    assert text.startswith(bounded[: -len(truncation_marker(50_000))])


def test_one_byte_over_is_truncated() -> None:
    bounded = bound_content("a" * 101, 100)
    assert nbytes(bounded) == 100
    assert bounded.endswith(truncation_marker(100))


def test_custom_limit_names_itself() -> None:
    bounded = bound_content("y" * 5000, 1234)
    assert bounded.endswith("\n…[tool result truncated at 1234 bytes]")
    assert nbytes(bounded) == 1234


def test_multibyte_straddling_the_cut_is_dropped_whole() -> None:
    marker = truncation_marker(200).encode("utf-8")
    room = 200 - len(marker)
    # A 4-byte emoji starts 2 bytes before the cut, so it cannot be kept.
    text = "a" * (room - 2) + "😀" * 100
    bounded = bound_content(text, 200)
    assert nbytes(bounded) == 198
    assert bounded == "a" * (room - 2) + marker.decode("utf-8")
    assert is_valid_utf8(bounded)


@pytest.mark.parametrize(("char", "width"), [("é", 2), ("€", 3), ("😀", 4)])
def test_multibyte_content_is_at_most_limit_minus_three(char: str, width: int) -> None:
    for limit in range(60, 80):
        bounded = bound_content(char * 100, limit)
        assert limit - 3 <= nbytes(bounded) <= limit
        head = bounded.removesuffix(truncation_marker(limit))
        assert set(head) <= {char}


def test_content_is_coerced_before_measuring() -> None:
    assert bound_content(b"ok\xff") == "ok\ufffd"
    assert bound_content("ok\udcff") == "ok\ufffd"
    bounded = bound_content(b"\xff" * 100, 60)  # each byte becomes 3 bytes of U+FFFD
    assert is_valid_utf8(bounded)
    assert nbytes(bounded) <= 60


def test_limit_smaller_than_marker_raises() -> None:
    size = nbytes(truncation_marker(10))
    with pytest.raises(ValueError, match="smaller than"):
        bound_content("short", 10)
    with pytest.raises(ValueError, match="smaller than"):
        bound_content("x" * 100, size - 1)


def test_limit_equal_to_marker_gives_only_marker() -> None:
    assert nbytes(truncation_marker(39)) == 39
    assert bound_content("x" * 100, 39) == truncation_marker(39)


@pytest.mark.parametrize("limit", [-1, 1.5, "100", True, None])
def test_bad_limit(limit: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        bound_content("x", limit)


content_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF))


@settings(max_examples=300, deadline=None)
@given(content_text, st.integers(min_value=50, max_value=400))
def test_bound_content_properties(text: str, limit: int) -> None:
    bounded = bound_content(text, limit)
    coerced = coerce_utf8(text)
    assert nbytes(bounded) <= limit
    assert is_valid_utf8(bounded)
    assert bound_content(bounded, limit) == bounded
    if nbytes(coerced) <= limit:
        assert bounded == coerced
    else:
        marker = truncation_marker(limit)
        assert bounded.endswith(marker)
        assert coerced.startswith(bounded.removesuffix(marker))
        assert nbytes(bounded) >= limit - 3


@settings(deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F)), st.integers(50, 400))
def test_ascii_truncation_is_exact(text: str, limit: int) -> None:
    bounded = bound_content(text, limit)
    if len(text) > limit:
        assert nbytes(bounded) == limit
    else:
        assert bounded == text


# --- bound_artifacts: common ---------------------------------------------------------


@pytest.mark.parametrize("policy", ["collapse", "drop"])
def test_empty_stays_empty(policy: Any) -> None:
    assert bound_artifacts((), policy=policy) == ()
    assert bound_artifacts([], 0, policy=policy) == ()


@pytest.mark.parametrize("policy", ["collapse", "drop"])
def test_fitting_artifacts_are_kept_in_order(policy: Any) -> None:
    artifacts = tuple(ToolArtifact.text(f"L{i}", f"t{i}") for i in range(10))
    assert bound_artifacts(artifacts, policy=policy) == artifacts


def test_unknown_policy_raises() -> None:
    with pytest.raises(ValueError, match="unknown artifact policy"):
        bound_artifacts((), policy="keep")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown artifact policy"):
        bound(ToolResult.error("x"), policy="keep")  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [-1, "10", 2.0, False])
def test_bad_budget(budget: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        bound_artifacts((), budget)


def test_non_artifact_raises() -> None:
    with pytest.raises(TypeError, match="ToolArtifact"):
        bound_artifacts([ToolArtifact.text("a", "b"), "text"])  # type: ignore[list-item]


@pytest.mark.parametrize("policy", ["collapse", "drop"])
def test_strings_are_coerced_everywhere(policy: Any) -> None:
    artifact = ToolArtifact(
        "chart\udcff",
        "lab\ud800el",
        {
            "k\udcff": ["v\udcff", ("t\ud800", {"deep": "d\udfff"})],
            1: "int key",
            "n": None,
            "f": 1.5,
            "b": True,
        },
    )
    (bounded,) = bound_artifacts([artifact], policy=policy)
    assert bounded.type == "chart\ufffd"
    assert bounded.label == "lab\ufffdel"
    assert bounded.data == {
        "k\ufffd": ["v\ufffd", ["t\ufffd", {"deep": "d\ufffd"}]],
        1: "int key",
        "n": None,
        "f": 1.5,
        "b": True,
    }
    json.dumps(bounded.to_dict(), ensure_ascii=False).encode("utf-8")


def test_mapping_data_becomes_dict() -> None:
    artifact = ToolArtifact("x", "l", MappingProxyType({"a": "b"}))
    (bounded,) = bound_artifacts([artifact])
    assert bounded.data == {"a": "b"}


def test_known_type_stays_enum_after_coercion() -> None:
    (bounded,) = bound_artifacts([ToolArtifact.table("T", ["a"], [["1"]])])
    assert bounded.type is ArtifactType.TABLE


# --- collapse (ADR-108) ---------------------------------------------------------------


def omitted(text: str) -> tuple[ToolArtifact, ...]:
    return (ToolArtifact(ArtifactType.TEXT, OMITTED_LABEL, {"text": text}),)


def test_collapse_oversize_list() -> None:
    artifacts = [blob("a", 30_000), blob("b", 30_000)]
    assert bound_artifacts(artifacts) == omitted("exceeded 50000 bytes")


def test_collapse_uses_custom_budget_in_message() -> None:
    assert bound_artifacts([blob("a", 500)], 100) == omitted("exceeded 100 bytes")


def test_collapse_boundary_is_inclusive() -> None:
    artifacts = (blob("a", 100), blob("b", 50))
    size = serialised(artifacts)
    assert bound_artifacts(artifacts, size) == artifacts
    assert bound_artifacts(artifacts, size - 1) == omitted(f"exceeded {size - 1} bytes")


def test_collapse_measures_utf8_bytes_not_characters() -> None:
    artifact = ToolArtifact.text("a", "é" * 100)
    size = serialised((artifact,))
    assert size > len(json.dumps([artifact.to_dict()], ensure_ascii=False))
    assert bound_artifacts([artifact], size) == (artifact,)
    assert bound_artifacts([artifact], size - 1) == omitted(f"exceeded {size - 1} bytes")


class Opaque:
    pass


def cyclic() -> dict[str, Any]:
    data: dict[str, Any] = {}
    data["self"] = data
    return data


def cyclic_list() -> list[Any]:
    data: list[Any] = []
    data.append(data)
    return data


def deep(levels: int) -> list[Any]:
    data: list[Any] = []
    for _ in range(levels):
        data = [data]
    return data


UNENCODABLE = [
    pytest.param({"v": math.nan}, id="nan"),
    pytest.param({"v": math.inf}, id="inf"),
    pytest.param({"v": -math.inf}, id="-inf"),
    pytest.param({"v": Opaque()}, id="object"),
    pytest.param(Opaque(), id="object-data"),
    pytest.param({"v": b"bytes"}, id="bytes"),
    pytest.param({"v": {1, 2}}, id="set"),
    pytest.param({("t",): 1}, id="tuple-key"),
    pytest.param(cyclic(), id="cycle"),
    pytest.param({"v": cyclic_list()}, id="list-cycle"),
    pytest.param(deep(100_000), id="too-deep"),
]


@pytest.mark.parametrize("data", UNENCODABLE)
def test_collapse_unencodable(data: Any) -> None:
    artifacts = [ToolArtifact.text("ok", "fine"), ToolArtifact("x", "bad", data)]
    assert bound_artifacts(artifacts) == omitted("could not be encoded")


def test_collapse_logs_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="toolwire.bounds"):
        bound_artifacts([blob("a", 500)], 100)
    assert any("collapsed 1 artifact" in r.getMessage() for r in caplog.records)


# --- drop (FlowDrop RT-TOOL-6) ----------------------------------------------------------


@pytest.mark.parametrize("data", UNENCODABLE)
def test_drop_unencodable_alone(data: Any, caplog: pytest.LogCaptureFixture) -> None:
    first, last = ToolArtifact.text("first", "1"), ToolArtifact.text("last", "2")
    with caplog.at_level(logging.WARNING, logger="toolwire.bounds"):
        kept = bound_artifacts([first, ToolArtifact("weird", "Bad one", data), last], policy="drop")
    assert kept == (first, last)
    (record,) = caplog.records
    assert record.name == "toolwire.bounds"
    assert record.levelno == logging.WARNING
    message = record.getMessage()
    assert "'weird'" in message and "'Bad one'" in message and "could not be encoded" in message


def test_drop_oversize_alone_and_keeps_later_fitting(caplog: pytest.LogCaptureFixture) -> None:
    small1, big, small2 = blob("s1", 10), blob("big", 60_000), blob("s2", 10)
    with caplog.at_level(logging.WARNING, logger="toolwire.bounds"):
        kept = bound_artifacts([small1, big, small2], policy="drop")
    assert kept == (small1, small2)
    (record,) = caplog.records
    assert "'text'" in record.getMessage() and "'big'" in record.getMessage()
    assert "do not fit" in record.getMessage()


def test_drop_fills_the_budget_greedily() -> None:
    artifacts = [blob("a", 20_000), blob("b", 20_000), blob("c", 20_000), blob("d", 5_000)]
    kept = bound_artifacts(artifacts, policy="drop")
    assert [a.label for a in kept] == ["a", "b", "d"]
    assert serialised(kept) <= 50_000


def test_drop_budget_counts_brackets_and_separators() -> None:
    a, b = blob("a", 40), blob("b", 40)
    exact = serialised((a, b))
    assert bound_artifacts([a, b], exact, policy="drop") == (a, b)
    assert bound_artifacts([a, b], exact - 1, policy="drop") == (a,)
    assert bound_artifacts([a], serialised((a,)) - 1, policy="drop") == ()


def test_drop_secret_never_leaks_into_the_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="toolwire.bounds"):
        bound_artifacts([ToolArtifact.text("k", SECRET * 100)], 100, policy="drop")
    assert caplog.records
    assert all(SECRET not in r.getMessage() for r in caplog.records)


def test_drop_warning_label_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="toolwire.bounds"):
        bound_artifacts([ToolArtifact("x", "evil\nINFO fake", math.nan)], policy="drop")
    assert "\n" not in caplog.records[0].getMessage()


json_leaf = st.none() | st.booleans() | st.integers() | st.floats() | content_text
json_data = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(content_text, inner, max_size=4),
    max_leaves=12,
)
artifact_strategy = st.builds(
    ToolArtifact,
    st.sampled_from(["table", "text", "chart", "x\udcff"]),
    content_text,
    json_data,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(artifact_strategy, max_size=8), st.integers(min_value=0, max_value=600))
def test_drop_properties(artifacts: list[ToolArtifact], budget: int) -> None:
    kept = bound_artifacts(artifacts, budget, policy="drop")
    assert serialised(kept) <= budget or kept == ()
    # Kept artifacts are the coerced versions of an order-preserving subsequence.
    labels = iter([coerce_utf8(a.label) for a in artifacts])
    assert all(any(a.label == label for label in labels) for a in kept)
    for artifact in kept:
        encoded = json.dumps(artifact.to_dict(), allow_nan=False, ensure_ascii=False)
        assert is_valid_utf8(encoded)


@settings(max_examples=200, deadline=None)
@given(st.lists(artifact_strategy, max_size=8), st.integers(min_value=0, max_value=600))
def test_collapse_properties(artifacts: list[ToolArtifact], budget: int) -> None:
    kept = bound_artifacts(artifacts, budget, policy="collapse")
    if not artifacts:
        assert kept == ()
    elif len(kept) == 1 and kept[0].label == OMITTED_LABEL and kept[0].type == "text":
        assert kept[0].data["text"] in ("could not be encoded", f"exceeded {budget} bytes")
    else:
        assert len(kept) == len(artifacts)
        assert serialised(kept) <= budget
        assert [a.label for a in kept] == [coerce_utf8(a.label) for a in artifacts]


# --- bound ------------------------------------------------------------------------------


def test_bound_applies_both_channels() -> None:
    result = ToolResult.text("x" * 100_000, blob("a", 30_000), blob("b", 30_000))
    bounded = bound(result)
    assert nbytes(bounded.content) == 50_000
    assert bounded.content.endswith(truncation_marker(50_000))
    assert bounded.artifacts == omitted("exceeded 50000 bytes")
    assert bounded.is_error is False


def test_bound_passes_options() -> None:
    result = ToolResult.text("y" * 500, blob("a", 30), blob("b", 500), blob("c", 30))
    bounded = bound(result, limit=100, budget=200, policy="drop")
    assert nbytes(bounded.content) == 100
    assert [a.label for a in bounded.artifacts] == ["a", "c"]


def test_bound_small_result_is_equal() -> None:
    result = ToolResult.text("ok", ToolArtifact.table("T", ["a"], [["1"]]))
    assert bound(result) == result


def test_bound_error_result_has_no_artifacts() -> None:
    bounded = bound(ToolResult.error("boom \udcff" + "z" * 60_000))
    assert bounded.is_error is True
    assert bounded.artifacts == ()
    assert bounded.content.startswith("boom \ufffd")
    assert nbytes(bounded.content) == 50_000
    assert "artifacts" not in bounded.to_flowdrop()


def test_bound_coerces_content() -> None:
    assert bound(ToolResult.text("a\ud800")).content == "a\ufffd"


def test_bound_rejects_non_results() -> None:
    with pytest.raises(TypeError, match="expected a ToolResult"):
        bound("text")  # type: ignore[arg-type]


def test_bound_secret_stays_off_the_wire() -> None:
    result = ToolResult.text("summary", ToolArtifact.text("k", SECRET))
    bounded = bound(result)
    assert SECRET not in bounded.content
    assert SECRET not in repr(bounded)
    assert SECRET not in repr(bounded.to_flowdrop()["data"])
    assert SECRET in repr(bounded.audit_record())
