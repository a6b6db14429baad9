"""Every tool, exercised through the loop's seam only.

These tests never call ``execute()`` and never look at its return value: they check
the message that goes to the provider, so they hold before and after the tools are
migrated to ``ToolResult``.
"""

from __future__ import annotations

import json

import pytest

from agent.chat import ChatMessage
from agent.loop import ToolCall, ToolLoop


def call(loop: ToolLoop, name: str, **arguments: str) -> ChatMessage:
    message = loop.invoke(ToolCall(id=f"call_{name}", name=name, arguments=arguments))
    assert message.role == "tool"
    assert message.tool_call_id == f"call_{name}"
    assert isinstance(message.content, str)
    return message


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", "1 + 2 * 3 = 7"),
        ("(1 + 2) * 7", "(1 + 2) * 7 = 21"),
        ("10 / 4", "10 / 4 = 2.5"),
        ("-2 ** 2", "-2 ** 2 = -4"),
        ("7 // 2 + 7 % 2", "7 // 2 + 7 % 2 = 4"),
    ],
)
def test_calculator(loop: ToolLoop, expression: str, expected: str) -> None:
    assert call(loop, "calculator", expression=expression).content == expected


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("", "Error: missing required argument 'expression'"),
        ("1 / 0", "Error: division by zero"),
        ("2 ** 1000", "Error: cannot evaluate '2 ** 1000': exponent too large"),
        ("__import__('os')", "Error: cannot evaluate \"__import__('os')\": unsupported"),
        ("1 +", "Error: cannot evaluate '1 +': "),
    ],
)
def test_calculator_errors(loop: ToolLoop, expression: str, expected: str) -> None:
    assert call(loop, "calculator", expression=expression).content.startswith(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", "0 words"), ("hello", "1 word"), ("the quick  brown\nfox", "4 words")],
)
def test_word_count(loop: ToolLoop, text: str, expected: str) -> None:
    assert call(loop, "word_count", text=text).content == expected


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"value": "5", "from": "km", "to": "mi"}, "5 km = 3.107 mi"),
        ({"value": "12", "from": "in", "to": "cm"}, "12 in = 30.48 cm"),
        ({"value": "2", "from": "LB", "to": "kg"}, "2 lb = 0.9072 kg"),
        ({"value": "100", "from": "c", "to": "f"}, "100 C = 212.00 F"),
        ({"value": "0", "from": "k", "to": "c"}, "0 K = -273.15 C"),
        ({"value": "ten", "from": "m", "to": "ft"}, "Error: 'value' must be a number, got 'ten'"),
        ({"value": "1", "from": "parsec", "to": "m"}, "Error: unknown unit 'parsec'"),
        ({"value": "1", "from": "m", "to": "ly"}, "Error: unknown unit 'ly'"),
        ({"value": "1", "from": "kg", "to": "m"}, "Error: cannot convert mass to length"),
    ],
)
def test_convert_units(loop: ToolLoop, arguments: dict[str, str], expected: str) -> None:
    assert call(loop, "convert_units", **arguments).content == expected


def test_weather(loop: ToolLoop) -> None:
    report = json.loads(call(loop, "weather", city="Lisbon").content)
    assert report == {"city": "Lisbon", "condition": "sunny", "temperature_c": 18, "wind_kph": 11}


def test_weather_unknown_city(loop: ToolLoop) -> None:
    report = json.loads(call(loop, "weather", city="Atlantis").content)
    assert report["error"] == "no observation for 'atlantis'"
    assert report["known_cities"] == ["Berlin", "Lisbon", "Oslo", "Tokyo"]


def test_memory_round_trip(loop: ToolLoop) -> None:
    assert call(loop, "memory", action="list").content == "(memory is empty)"
    assert call(loop, "memory", action="set", key="plan", value="ship it").content == (
        "Remembered 'plan'."
    )
    assert call(loop, "memory", action="set", key="owner", value="ada").content == (
        "Remembered 'owner'."
    )
    assert call(loop, "memory", action="get", key="plan").content == "ship it"
    assert call(loop, "memory", action="list").content == "owner, plan"
    assert call(loop, "memory", action="delete", key="plan").content == "Forgot 'plan'."


def test_memory_no_output(loop: ToolLoop) -> None:
    # The tool returns None here; the loop still answers the call.
    assert call(loop, "memory", action="get", key="missing").content == "(no output)"
    assert call(loop, "memory", action="delete", key="missing").content == "(no output)"


def test_memory_errors(loop: ToolLoop) -> None:
    assert call(loop, "memory", action="get").content == "Error: missing required argument 'key'"
    assert call(loop, "memory", action="push", key="k").content == "Error: unknown action 'push'"


def test_glossary_is_awaited(loop: ToolLoop) -> None:
    message = call(loop, "glossary", term="Seam")
    assert message.content == (
        "seam: The single place every tool call passes through before its result leaves."
    )


def test_glossary_unknown_term(loop: ToolLoop) -> None:
    assert call(loop, "glossary", term="wire").content == (
        "No glossary entry for 'wire'. Known terms: artifact, egress, seam."
    )


def test_records_table(loop: ToolLoop) -> None:
    assert call(loop, "records", department="research", sort="name").content == (
        "id  name               department  city\n"
        "--  -----------------  ----------  -------\n"
        "4   Hedy Lamarr        research    Vienna\n"
        "3   Katherine Johnson  research    Hampton\n"
        "(2 rows)"
    )


def test_records_filters(loop: ToolLoop) -> None:
    content = call(loop, "records", city="London").content
    assert content.splitlines()[2:] == [
        "1   Ada Lovelace  engineering  London",
        "5   Joan Clarke   security     London",
        "(2 rows)",
    ]
    assert call(loop, "records").content.endswith("(5 rows)")
    single = call(loop, "records", department="security").content
    assert single.endswith("(1 row)")


def test_records_errors(loop: ToolLoop) -> None:
    assert call(loop, "records", city="Paris").content == "No records match."
    assert call(loop, "records", sort="salary").content == (
        "Error: cannot sort by 'salary'; columns are id, name, department, city"
    )


def test_list_files(loop: ToolLoop) -> None:
    assert call(loop, "list_files", path="/docs").content == (
        "/docs (2 entries)\nchangelog.md  26\nguide.md  35"
    )
    assert call(loop, "list_files", path="/").content == (
        "/ (3 entries)\nREADME.md  12\ndocs/\nsrc/"
    )


def test_list_files_error(loop: ToolLoop) -> None:
    assert call(loop, "list_files", path="/nope").content == "Error: no such directory '/nope'"


def test_unknown_tool(loop: ToolLoop) -> None:
    assert call(loop, "delete_everything").content == "Error: unknown tool 'delete_everything'"
