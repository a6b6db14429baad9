"""migrate's LibCST parse leaves out the checks each node runs as it is made
(`parsing.unvalidated`): the tree must be the one LibCST builds with them, for every example
of codemods/*.md and rules/*.md and every vendored real-package file, and every node built
after the parse (the rewrites') is checked as before, however the parse ended."""

from __future__ import annotations

import libcst as cst
import pytest
from codemod_helpers import CODEMODS_DIR, FIXTURES, RULES_DIR, pairs

from toolwire.lint.codemods.parsing import parse_cst

SOURCES = {
    **{
        str(p.relative_to(FIXTURES)): p.read_text(encoding="utf-8")
        for p in FIXTURES.rglob("*.py.txt")
    },
    **{
        pair.id: pair.before
        for doc in (CODEMODS_DIR, RULES_DIR)
        for f in sorted(doc.glob("*.md"))
        for pair in pairs(f)
    },
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_tree_is_the_one_libcst_builds_with_its_checks(name: str) -> None:
    text = SOURCES[name]
    tree, problem = parse_cst(text, name)
    if tree is None:
        with pytest.raises(cst.ParserSyntaxError):
            cst.parse_module(text)
        return
    assert problem is None
    checked = cst.parse_module(text)
    assert tree.deep_equals(checked)
    assert tree.code == checked.code == text


def test_a_node_made_after_the_parse_is_checked() -> None:
    tree, _ = parse_cst("x = 1\n", "x.py")
    assert tree is not None
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
    with pytest.raises(cst.CSTValidationError):
        tree.body[0].with_changes(body=[cst.Expr(cst.Name("not a name"))])


def test_the_checks_come_back_when_the_parse_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def deep(text: str) -> cst.Module:
        cst.Name("")  # not checked within
        raise RecursionError

    monkeypatch.setattr(cst, "parse_module", deep)
    tree, problem = parse_cst("x = 1\n", "deep.py")
    assert tree is None and problem is not None and "RecursionError" in problem.message
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")
