"""migrate generates only the statements a rewrite changed (`codemods/splice.py`): the text
it makes by parts must be exactly the whole module's codegen, `Module.code`, for every
example of codemods/*.md and rules/*.md and every vendored real-package file, after the
real migration and after a change of each statement at every depth."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from codemod_helpers import CODEMODS_DIR, FIXTURES, RULES_DIR, fixture_config, pairs

from toolwire.lint.codemods.splice import splice
from toolwire.lint.codemods.tool_returns.plan import ToolReturns
from toolwire.lint.codemods.unused_imports import _fewer_uses, _may_lose_uses
from toolwire.lint.config import config_from_table

REAL = sorted(FIXTURES.rglob("*.py.txt"))
EXAMPLES = [
    p for doc in (CODEMODS_DIR, RULES_DIR) for f in sorted(doc.glob("*.md")) for p in pairs(f)
]


def _sources() -> Iterator[tuple[str, str]]:
    for path in REAL:
        yield str(path.relative_to(FIXTURES)), path.read_text(encoding="utf-8")
    for pair in EXAMPLES:
        yield pair.id, pair.before


SOURCES = {name: text for name, text in _sources() if text.strip()}
_Path = tuple[tuple[cst.CSTNode, str, int | None], ...]
_BLOCKS = ("body", "orelse", "handlers", "finalbody", "cases")


def _statements(node: cst.CSTNode, path: _Path = ()) -> Iterator[tuple[cst.CSTNode, _Path]]:
    """Every statement of the tree, at every depth, with the way down to it."""
    for name in _BLOCKS:
        value = getattr(node, name, None)
        if isinstance(value, cst.IndentedBlock | cst.Else | cst.Finally | cst.If):
            yield from _statements(value, (*path, (node, name, None)))
        elif isinstance(value, tuple | list):
            for index, item in enumerate(value):
                step = (*path, (node, name, index))
                if isinstance(item, cst.BaseStatement):
                    yield item, step
                    yield from _statements(item, step)
                elif isinstance(item, cst.CSTNode):  # except handler, match case
                    yield from _statements(item, step)


def _rebuilt(path: _Path, replacement: Any) -> Any:
    """The tree with the node at the end of `path` replaced, everything else shared."""
    node = replacement
    for parent, name, index in reversed(path):
        if index is None:
            node = parent.with_changes(**{name: node})
        else:
            items = list(getattr(parent, name))
            items[index : index + 1] = node if isinstance(node, list) else [node]
            node = parent.with_changes(**{name: items})
    return node


def _mutations(tree: cst.Module) -> Iterator[tuple[str, cst.Module]]:
    """One change per statement, the kinds taken in turn."""
    comment = cst.EmptyLine(comment=cst.Comment("# changed"))
    added = cst.parse_statement("import spliced\n")
    found = list(_statements(tree))
    step = max(1, len(found) // 30)  # some 30 a file, spread over it (and its depths)
    for number, (statement, path) in enumerate(found[::step]):
        assert isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        kind = number % 5
        if kind == 4 and isinstance(statement, cst.FunctionDef | cst.ClassDef):
            name = statement.name.with_changes(value=statement.name.value + "_x")
            yield "a new name", _rebuilt(path, statement.with_changes(name=name))
        elif kind == 3:
            yield "a statement after", _rebuilt(path, [statement, added])
        elif kind == 2:
            yield "a statement before", _rebuilt(path, [added, statement])
        elif kind == 1:
            lines = [*statement.leading_lines, comment]
            yield "a comment above", _rebuilt(path, statement.with_changes(leading_lines=lines))
        else:
            yield "same code, new node", _rebuilt(path, statement.deep_clone())


def _check(name: str, text: str, before: cst.Module, after: cst.Module, why: str) -> bool:
    spliced = splice(before, text, ast.parse(text), after)
    if spliced is None:
        return False
    assert spliced.code == after.code, f"{name}: {why}"
    return True


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_spliced_text_is_the_whole_codegen_after_a_change_anywhere(name: str) -> None:
    text = SOURCES[name]
    tree = cst.parse_module(text)
    made = [_check(name, text, tree, after, why) for why, after in _mutations(tree)]
    assert made, f"{name}: no statement to change"
    # Only a text whose lines ast and LibCST may number apart is made whole.
    assert all(made) or "\r" in text or not text.endswith("\n"), name


def test_the_mutations_reach_nested_statements() -> None:
    """The change-anywhere test changes methods of classes and statements in blocks."""
    tree = cst.parse_module(
        SOURCES[str(Path("langchain_real/langchain_community_file_management/read.py.txt"))]
    )
    depths = {len(path) for _, path in _statements(tree)}
    assert max(depths) >= 4


def _config(name: str) -> Any:
    preset = {
        "crewai_real": "crewai",
        "fastmcp_real": "fastmcp",
        "google_adk_real": "google-adk",
        "langchain_real": "langchain",
        "llamaindex_tools": "llamaindex",
        "mcp_real": "mcp",
        "openai_agents_real": "openai-agents",
        "pydantic_ai_real": "pydantic-ai",
    }
    head = Path(name).parts[0]
    if head in preset:
        return config_from_table({"presets": [preset[head]]})
    pair = next(p for p in EXAMPLES if p.id == name)
    return config_from_table({**fixture_config(), **pair.config}, FIXTURES / "pyproject.toml")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_spliced_text_is_the_whole_codegen_after_the_migration(name: str) -> None:
    text = SOURCES[name]
    tree = cst.parse_module(text)
    new = ToolReturns(_config(name)).run(tree, "example.py", text)
    spliced = splice(tree, text, ast.parse(text), new)
    assert spliced is not None or "\r" in text or not text.endswith("\n")
    if spliced is not None:
        assert spliced.code == new.code
        if new is not tree:
            assert spliced.new, "a changed tree has changed parts"


def test_a_migration_made_by_parts() -> None:
    """The parts are the changed statements, not the whole class around them."""
    text = (
        "from langchain_core.tools import BaseTool\n\n\n"
        "class Search(BaseTool):\n"
        '    name: str = "search"\n'
        '    description: str = "Search."\n\n'
        "    def helper(self) -> int:\n"
        "        return 1\n\n"
        "    def _run(self, query: str) -> str:\n"
        "        x = 1\n"
        "        return query\n"
    )
    tree = cst.parse_module(text)
    new = ToolReturns(config_from_table({"presets": ["langchain"]})).run(tree, "t.py", text)
    spliced = splice(tree, text, ast.parse(text), new)
    assert spliced is not None and spliced.code == new.code
    assert "helper" not in "".join(spliced.new)
    assert "x = 1" not in "".join(spliced.new)
    assert any("return ToolResult.text(query)" in part for part in spliced.new)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_unused_import_step_is_skipped_only_where_no_use_is_lost(name: str) -> None:
    """`_may_lose_uses` (the replaced parts alone) says no only where `_fewer_uses`
    (the whole texts) finds nothing, after every change that removes a name."""
    text = SOURCES[name]
    tree = cst.parse_module(text)
    old_tree = ast.parse(text)
    found = list(_statements(tree))
    for _, path in found[:: max(1, len(found) // 12)]:
        after = _rebuilt(path, cst.parse_statement("pass\n"))
        spliced = splice(tree, text, old_tree, after)
        if spliced is None:
            continue
        fewer = _fewer_uses(old_tree, text, ast.parse(spliced.code), spliced.code)
        assert _may_lose_uses(old_tree, text, spliced) or not fewer, (name, fewer)


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_lines_fitted_by_text_as_by_positions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`fit_lines` without positions (`_ByText`, looking into the changed statements and
    parts alone) splits the returns that the positions (`_Split`) split, at any line
    length; the fitted tree is made by parts too."""
    from libcst.metadata import MetadataWrapper

    from toolwire.lint.codemods import line_length

    text = SOURCES[name]
    tree = cst.parse_module(text)
    new = ToolReturns(_config(name)).run(tree, "example.py", text)
    spliced = splice(tree, text, ast.parse(text), new)
    if new is tree or spliced is None:
        return
    code = new.code

    def by_parts(fitted: cst.Module) -> str:
        made = splice(tree, text, ast.parse(text), fitted)
        assert made is not None and made.code == fitted.code
        return made.code

    for limit in (30, 50, 88):
        monkeypatch.setattr(line_length, "line_length", lambda path, limit=limit: limit)
        old = set(text.splitlines())
        lines = code.splitlines()
        long = {n for n, line in enumerate(lines, 1) if len(line) > limit and line not in old}
        wrapper = MetadataWrapper(new, unsafe_skip_copy=True)
        expected = wrapper.visit(line_length._Split(long, new.default_indent)).code
        fitted = line_length.fit_lines(text, new, code, Path("x.py"), spliced.new, by_parts, tree)
        assert fitted == expected, (name, limit)


_TOOL = "from langchain_core.tools import BaseTool\n\n\nclass Search(BaseTool):\n"
# (first lines of `_run`, its body): the annotation swap and the block's end taken from
# the text, next to the forms where the text is not enough and codegen decides.
_EDGES = {
    "plain": ("    def _run(self, q: str) -> str:\n", "        return q\n"),
    "non-ascii before the annotation": (
        '    def _run(self, q: str = "é✓") -> str:  # ünïcode\n',
        "        return q\n",
    ),
    "spaced": ("    def _run(self, q: str)  ->   str   :\n", "        return q  # why\n"),
    "split signature": (
        "    async def _run(\n        self,\n        q: str,\n    ) -> str:\n",
        "        x = 1; return q;  # two\n",
    ),
    "annotation on a continued line": (
        "    def _run(self, q: str) -> \\\n            str:\n",
        "        return (\n            q\n        )\n",
    ),
    "decorated": (
        "    @staticmethod\n    def _run(q: str) -> str:\n",
        '        return """a\nb"""\n',
    ),
    "parenthesized": ("    def _run(self, q: str) -> (str):\n", "        return q \\\n\n"),
    "string annotation": (
        "    def _run(self, q: str) -> 'str':\n",
        "        return q  # a comment ending in \\\n",
    ),
    "continued semicolon": (
        "    def _run(self, q: str) -> str:\n",
        "        return q \\\n        ;\n",
    ),
}


@pytest.mark.parametrize("edge", sorted(_EDGES))
def test_first_lines_and_block_ends_from_the_text(
    edge: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function whose return annotation alone changed gets its first lines from the old
    text with the annotation swapped, and a block's last simple statement ends with its
    line, without codegen: exactly `Module.code`, and codegen only where the text does
    not say (parentheses around the annotation, a line ending in a backslash)."""
    from toolwire.lint.codemods import splice as splice_module

    signature, body = _EDGES[edge]
    text = f'{_TOOL}    name: str = "s"\n\n{signature}        """Doc."""\n{body}\nX = 1\n'
    heads: list[str] = []
    generated: list[str] = []
    real_head, real_code = splice_module._Parts.head, splice_module._Parts.code

    def head(self: Any, node: Any, indents: tuple[str, ...]) -> str:
        heads.append(node.name.value)
        return real_head(self, node, indents)

    def code(self: Any, statements: Any, indents: tuple[str, ...]) -> str:
        made = real_code(self, statements, indents)
        generated.append(made)
        return made

    monkeypatch.setattr(splice_module._Parts, "head", head)
    monkeypatch.setattr(splice_module._Parts, "code", code)
    tree = cst.parse_module(text)
    new = ToolReturns(config_from_table({"presets": ["langchain"]})).run(tree, "t.py", text)
    assert new is not tree, edge
    spliced = splice(tree, text, ast.parse(text), new)
    assert spliced is not None and spliced.code == new.code, edge
    assert ("_run" in heads) == (edge == "parenthesized"), edge
    old_return = body.split("\n")[0].strip()
    backslash = body.rstrip("\n").endswith("\\") or "\\\n" in body
    assert any(old_return in made for made in generated) == backslash, edge


# A method body whose returns migrate wraps, and whether any needs codegen (else each
# new return is the old text with `ToolResult.text(` and `)` around the value).
_RETURNS = {
    "plain": ("        return q\n", False),
    "comment": ("        return q  # why\n", False),
    "semicolon and spaces": ("        return   q ;  # why\n", False),
    "non-ascii": ('        s = "é"\n        return "✓ é" + q  # ü\n', False),
    "spans lines": ("        return g(\n            q,  # c\n        )\n", False),
    "backslash in the value": ('        return "a" \\\n            "b"\n', False),
    "await": ("        return await g(q)\n", False),
    "in except": (
        "        try:\n            return q\n        except ValueError as e:\n"
        "            return f'Error: {e}'\n",
        False,
    ),
    "two on a line": ("        x = 1; return q\n", True),
    "parenthesized": ("        return (q)\n", True),
    "tuple": ("        return q, 1\n", True),
    "no space": ("        return(q)\n", True),
}


@pytest.mark.parametrize("case", sorted(_RETURNS))
def test_wrapped_returns_from_the_text(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `return X` made `return ToolResult.text(X)` is the old line with the call around
    X's own text, exactly `Module.code`; the returns that are not that plain shape are
    generated."""
    from toolwire.lint.codemods import splice as splice_module

    body, generated_expected = _RETURNS[case]
    text = f"{_TOOL}    async def _run(self, q: str) -> str:\n{body}\n\nX = 1\n"
    generated: list[str] = []
    real_code = splice_module._Parts.code

    def code(self: Any, statements: Any, indents: tuple[str, ...]) -> str:
        made = real_code(self, statements, indents)
        generated.append(made)
        return made

    monkeypatch.setattr(splice_module._Parts, "code", code)
    tree = cst.parse_module(text)
    config = config_from_table({"presets": ["langchain"], "error-markers": []})
    new = ToolReturns(config).run(tree, "t.py", text)
    assert new is not tree, case
    spliced = splice(tree, text, ast.parse(text), new)
    assert spliced is not None and spliced.code == new.code, case
    assert "ToolResult." in spliced.code, case
    made = any(".text(" in g or ".error(" in g for g in generated)
    assert made == generated_expected, (case, generated)
    # split by `fit_lines` (every line is long at 20): the call's spaces are generated,
    # X is still text
    from toolwire.lint.codemods import line_length

    def by_parts(fitted: cst.Module) -> str:
        made = splice(tree, text, ast.parse(text), fitted)
        assert made is not None and made.code == fitted.code, case
        return made.code

    monkeypatch.setattr(line_length, "line_length", lambda path: 20)
    generated.clear()
    line_length.fit_lines(text, new, new.code, Path("x.py"), spliced.new, by_parts, tree)
    made = any(".text(" in g or ".error(" in g for g in generated)
    assert made == generated_expected, (case, generated)
    split = any(g.startswith("\n") and g.strip() == "" for g in generated)
    assert split or generated_expected or case == "spans lines", (case, generated)
