"""The codemods' corners that the Markdown examples do not show: spans, parentheses,
import placement, line endings, the line scan fallback and reports."""

from __future__ import annotations

import ast

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from toolwire.lint.codemods.names import def_lines
from toolwire.lint.codemods.tool_returns import ToolReturnsCommand
from toolwire.lint.codemods.wire_content import WireContentCommand, with_content
from toolwire.lint.config import Config
from toolwire.lint.findings import Finding

CONFIG = Config(tool_methods=("execute", "_run", "_arun"))


def tool_returns(source: str, config: Config = CONFIG) -> tuple[str, ToolReturnsCommand]:
    command = ToolReturnsCommand(CodemodContext(filename="t.py"), config=config)
    out = command.transform_module(cst.parse_module(source)).code
    ast.parse(out)
    return out, command


def fix(code: str, line: int, column: int, end_line: int, end_column: int) -> Finding:
    return Finding("t.py", line, column, code, "m", end_line, end_column, "wire-content")


def wire(source: str, findings: list[Finding]) -> tuple[str, WireContentCommand]:
    command = WireContentCommand(
        CodemodContext(filename="t.py"), config=Config(), findings=findings
    )
    out = command.transform_module(cst.parse_module(source)).code
    ast.parse(out)
    return out, command


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("r", "r.content"),
        ("self.r", "self.r.content"),
        ("f(x)", "f(x).content"),
        ("rs[0]", "rs[0].content"),
        ("await f()", "(await f()).content"),
        ("a if c else b", "(a if c else b).content"),
        ("a or b", "(a or b).content"),
        ("(a or b)", "(a or b).content"),
        ("x := y", "(x := y).content"),
    ],
)
def test_with_content_parenthesises_when_needed(expression: str, expected: str) -> None:
    parsed = cst.parse_expression(expression if ":=" not in expression else f"({expression})")
    if ":=" in expression:
        parsed = parsed.with_changes(lpar=[], rpar=[])
    assert cst.Module([]).code_for_node(with_content(parsed)) == expected


def test_spans_map_to_exact_nodes_with_character_columns() -> None:
    # "é" is two UTF-8 bytes: the columns of findings count characters, as LibCST does.
    source = 'def f(r, s):\n    sink("é", r, key=await s)\n    return str(r), str(  r  )\n'
    findings = [
        fix("TW301", 2, 15, 2, 16),  # r
        fix("TW301", 2, 22, 2, 29),  # await s
        fix("TW201", 3, 12, 3, 18),  # str(r)
        fix("TW201", 3, 20, 3, 30),  # str(  r  )
    ]
    out, command = wire(source, findings)
    assert out == (
        'def f(r, s):\n    sink("é", r.content, key=(await s).content)\n'
        "    return r.content, r.content\n"
    )
    assert (command.report.sinks, command.report.str_calls) == (2, 2)
    assert not command.report.unmatched


def test_a_span_without_a_node_is_reported_not_guessed() -> None:
    out, command = wire("sink(r)\n", [fix("TW301", 1, 5, 1, 7)])
    assert out == "sink(r)\n"
    assert [f.code for f in command.report.unmatched] == ["TW301"]


def test_payload_and_str_on_the_same_span_become_one_content() -> None:
    source = 'm = {"content": str(r)}\n'
    findings = [fix("TW201", 1, 17, 1, 23), fix("TW301", 1, 17, 1, 23)]
    out, command = wire(source, findings)
    assert out == 'm = {"content": r.content}\n'
    assert command.report.str_calls == 1


def test_unproven_payloads_are_left_for_review() -> None:
    review = Finding("t.py", 1, 6, "TW301", "m", 1, 7, None)
    out, command = wire("sink(r)\n", [review])
    assert out == "sink(r)\n"
    assert command.report.review == [review]


def test_crlf_stays_crlf_including_the_added_import() -> None:
    source = "class T:\r\n    def execute(self) -> str:\r\n        return 'x'\r\n"
    out, _ = tool_returns(source)
    assert out == (
        "from toolwire import ToolResult\r\n\r\n\r\nclass T:\r\n"
        "    def execute(self) -> ToolResult:\r\n        return ToolResult.text('x')\r\n"
    )


def test_import_goes_to_the_third_party_section_after_shebang_docstring_and_stdlib() -> None:
    source = (
        '#!/usr/bin/env python\n# header\n"""Doc."""\nimport os\n\n'
        "class T:\n    def execute(self) -> str:\n        return os.sep\n"
    )
    out, _ = tool_returns(source)
    assert out.startswith(
        '#!/usr/bin/env python\n# header\n"""Doc."""\n'
        "import os\n\nfrom toolwire import ToolResult\n\nclass T:"
    )


def test_a_local_name_toolresult_is_not_shadowed() -> None:
    source = (
        "class ToolResult: ...\n\n\nclass T:\n    def execute(self) -> str:\n        return 'x'\n"
    )
    out, _ = tool_returns(source)
    assert "import toolwire\n" in out
    assert "-> toolwire.ToolResult:" in out and "toolwire.ToolResult.text('x')" in out


def test_tuple_return_is_wrapped_as_one_argument() -> None:
    out, _ = tool_returns("class T:\n    def execute(self) -> str:\n        return 'a', 'b'\n")
    assert "return ToolResult.text(('a', 'b'))" in out


def test_report_counts_and_locations() -> None:
    source = (
        "class T:\n"
        "    def execute(self, a) -> str:\n"
        "        try:\n            return a['x']\n"
        "        except KeyError:\n            return 'missing'\n"
        "\n"
        "class U:\n"
        "    @property\n"
        "    def _run(self) -> str:\n        return\n"
    )
    _, command = tool_returns(source)
    report = command.report
    assert [(e.line, e.cls, e.method) for e in report.migrated] == [(2, "T", "execute")]
    assert [(e.line, e.method, e.reason) for e in report.skipped] == [
        (10, "_run", "has a bare `return`")
    ]
    assert (report.text, report.error) == (1, 1)
    assert report.known_tools == {
        "t.T"
    }  # no config: the module is named from the working directory


def test_def_inside_a_string_falls_back_to_real_positions() -> None:
    source = (
        'DOC = """\ndef execute(x):\n"""\n\n\n'
        'class T:\n    def execute(self) -> str:\n        return "x"\n'
    )
    assert def_lines(source, ["execute"]) == {"execute": [2, 7]}
    _, command = tool_returns(source)
    assert [e.line for e in command.report.migrated] == [7]


def test_def_lines_finds_what_a_line_start_scan_finds() -> None:
    """`def_lines` searches `def NAME` and then checks the line's start: the lines of the
    `^[ \\t]*(?:async[ \\t]+)?def[ \\t]+NAME\\b` scan (re.M), at every line of every
    fixture and in the corners (two on a line, `async`, tabs, a prefix, `undef`)."""
    import re
    from pathlib import Path

    def scan(text: str, names: list[str]) -> dict[str, list[int]]:
        wanted = "|".join(re.escape(n) for n in names)
        pattern = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+({wanted})\b", re.M)
        found: dict[str, list[int]] = {}
        for match in pattern.finditer(text):
            found.setdefault(match[1], []).append(text.count("\n", 0, match.start()) + 1)
        return found

    corners = (
        "def run(): pass; def run(): pass\n"
        "async  def _run(x):\n\tdef run(y):\n"
        "x = 1; def run(): pass\n"
        "undef run\nasyncdef run\n  async\tdef\trun_x(): pass\n"
        "    def _arun(self): 'def run'\ndef run\n"
    )
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    texts = [corners, *(p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.py.txt")))]
    names = ["run", "_run", "_arun", "run_x", "execute"]
    for text in texts:
        assert def_lines(text, names) == scan(text, names)
    assert def_lines(corners, names) == {"run": [1, 3, 9], "_run": [2], "run_x": [7], "_arun": [8]}


def test_a_name_only_in_def_lines_is_no_attribute_anywhere() -> None:
    """`used_as_str` walks no method for a name `written_elsewhere` leaves out: such a
    name is the `attr` of no Attribute of the module, in every fixture and in the corners
    (a comment or a backslash between the dot and the name, `def` lines in a string)."""
    from pathlib import Path

    from toolwire.lint.codemods.tool_returns.holds import written_elsewhere

    def attributes(tree: cst.CSTNode) -> set[str]:
        found: set[str] = set()

        class Visitor(cst.CSTVisitor):
            def visit_Attribute(self, node: cst.Attribute) -> None:
                found.add(node.attr.value)

        tree.visit(Visitor())
        return found

    corners = [
        "class T:\n    def _run(self): pass\n    def g(self):\n        return (self.  # c\n"
        "            _run)\n",
        "class T:\n    def _run(self): pass\n    def g(self):\n        return self.\\\n_run\n",
        'DOC = """\ndef _run(x):\n"""\nclass T:\n    def _run(self): pass\n    x = T()._run\n',
        "class T:\n    def _run(self): pass\n    def _arun(self): pass\n    run_x = 1\n",
    ]
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    texts = [*corners, *(p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.py.txt")))]
    names = {"_run", "_arun", "run", "execute", "forward", "call"}
    left = 0
    for text in texts:
        try:
            tree = cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        used = attributes(tree) & names
        written = written_elsewhere(text, names)
        assert used <= written, text[:200]
        left += len(names - written)
    assert written_elsewhere(corners[3], names) == set()
    assert all(written_elsewhere(c, names) == {"_run"} for c in corners[:3])
    assert left  # the filter does leave names out


def test_nothing_to_do_returns_the_same_tree() -> None:
    tree = cst.parse_module("class T:\n    def render(self) -> str:\n        return 'x'\n")
    command = ToolReturnsCommand(CodemodContext(filename="t.py"), config=CONFIG)
    assert command.transform_module_impl(tree) is tree


def test_already_migrated_classes_count_as_known_tools() -> None:
    source = (
        "from toolwire import ToolResult\n\nclass T:\n"
        "    def execute(self) -> ToolResult:\n        return ToolResult.text('x')\n"
    )
    out, command = tool_returns(source)
    assert out == source
    assert command.report.known_tools == {"t.T"}
