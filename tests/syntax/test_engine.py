from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source, module_name, source_lines

FIXTURES = Path(__file__).parents[1] / "fixtures"
CONFIG = load_config(FIXTURES / "pyproject.toml")
LEAK = "from toolwire import ToolResult\n\ndef f(r: ToolResult) -> str:\n    return str(r){}\n"


def codes(source: bytes | str) -> list[tuple[int, int, str]]:
    return [(f.line, f.column, f.code) for f in check_source(source, "m.py", CONFIG)]


def test_a_leak_is_found_with_its_span_and_fix() -> None:
    (finding,) = check_source(LEAK.format(""), "m.py", CONFIG)
    assert (finding.line, finding.column, finding.end_line, finding.end_column) == (4, 12, 4, 18)
    assert finding.fix == "wire-content"
    assert finding.as_text().startswith("m.py:4:12: TW201 ")


@pytest.mark.parametrize(
    ("comment", "hidden"),
    [
        ("  # noqa", True),
        ("  # noqa: TW201", True),
        ("  # noqa: TW2", True),
        ("  # noqa: E501, TW201", True),
        ("  # noqa: TW301", False),
        ("  # noqa: E501", False),
        ("  # toolwire: ignore", True),
        ("  # toolwire: ignore[TW201]", True),
        ("  # toolwire: ignore[TW204]", False),
    ],
)
def test_suppression_comments(comment: str, hidden: bool) -> None:
    assert bool(codes(LEAK.format(comment))) is not hidden


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x1e", "\x85", "\u2028"])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lines_are_counted_as_python_counts_them(separator: str, newline: str) -> None:
    # str.splitlines also breaks at a form feed (and these others, here in a comment):
    # every later line, and the line a `# noqa` is looked for on, would be one off.
    source = "from toolwire import ToolResult\n# one" + separator + "line\n\n"
    source += "def f(r: ToolResult) -> str:\n    return str(r)  # noqa: TW201\n\n"
    source += "def g(r: ToolResult) -> str:\n    return str(r)\n"
    assert codes(source.replace("\n", newline)) == [(8, 12, "TW201")]


def test_source_lines_split_only_where_the_tokenizer_does() -> None:
    # every text of up to 5 of these pieces, against a plain split at \r\n, \r and \n
    pieces = ["a", "\n", "\r", "\r\n", "\x0c", "\x1c", "\u2028"]
    for size in range(6):
        for parts in itertools.product(pieces, repeat=size):
            text = "".join(parts)
            expected = re.split(r"\r\n|\r|\n", text)
            if expected[-1] == "":
                expected.pop()
            assert source_lines(text) == expected, repr(text)


def test_a_form_feed_line_is_one_line() -> None:
    source = "from toolwire import ToolResult\n\x0c\n\n"
    source += "def f(r: ToolResult) -> str:\n    return str(r)  # noqa: TW201\n"
    assert codes(source) == []


def test_suppression_can_be_turned_off_for_codemods() -> None:
    source = LEAK.format("  # noqa")
    assert check_source(source, "m.py", CONFIG, suppress=False)


def test_columns_count_characters_not_bytes() -> None:
    source = LEAK.format("").replace("return str(r)", 'x = "ñandú"; return str(r)')
    assert codes(source) == [(4, 25, "TW201")]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (b"def f(:\n", "cannot parse"),
        (b"x = 1\n\xff\xfe = 2\n", "cannot decode"),
        (b"x = 1\x00\n", "NUL byte"),
        ("x = 1\n".encode("utf-16"), "UTF-16"),
        (b"# -*- coding: nosuch -*-\nx = 1\n", "cannot decode"),
        (b"x = (" * 300 + b")" * 300, "cannot parse"),
    ],
)
def test_unreadable_input_is_one_tw000(source: bytes, message: str) -> None:
    (finding,) = check_source(source, "m.py", CONFIG)
    assert finding.code == "TW000" and message in finding.message


def test_bom_and_coding_cookie_are_honoured() -> None:
    assert codes(b"\xef\xbb\xbf" + LEAK.format("").encode()) == [(4, 12, "TW201")]
    latin = ("# -*- coding: latin-1 -*-\n" + LEAK.format("  # é")).encode("latin-1")
    assert codes(latin) == [(5, 12, "TW201")]


def test_empty_module_is_clean() -> None:
    assert codes(b"") == []


def test_module_name_is_relative_to_the_project_or_src(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.toolwire]\n")
    config = load_config(tmp_path / "pyproject.toml")
    assert module_name(tmp_path / "src" / "pkg" / "mod.py", config) == "pkg.mod"
    assert module_name(tmp_path / "pkg" / "__init__.py", config) == "pkg"
    assert module_name(tmp_path / "my-scripts" / "x.py", config) is None


def test_a_definition_naming_no_marker_is_followed_through_names_leading_to_one() -> None:
    # `use` names neither ToolResult nor TR: it reaches a result through `make`, which
    # reaches it through `CACHED`, bound from an alias imported inside a `try`.
    source = (
        "def use() -> None:\n"
        "    print(make())\n"
        "\n"
        "try:\n"
        "    from toolwire import ToolResult as TR\n"
        "except ImportError:\n"
        "    pass\n"
        "CACHED = TR.text('x')\n"
        "\n"
        "def make():\n"
        "    return CACHED\n"
        "\n"
        "def unrelated() -> None:\n"
        "    print('fine')\n"
    )
    assert [(line, code) for line, _, code in codes(source)] == [(2, "TW204")]
