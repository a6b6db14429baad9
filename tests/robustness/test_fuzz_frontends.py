"""hypothesmith modules through the flake8 plugin and the codemods (bounded, deterministic).

`toolwire check` is fuzzed in tests/syntax/test_fuzz.py; this covers the other front-ends.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolwire.lint.codemods.runner import migrate_paths
from toolwire.lint.config import load_config
from toolwire.lint.flake8_plugin import ToolwireChecker

FIXTURES = Path(__file__).parents[1] / "fixtures"
CONFIG = load_config(FIXTURES / "pyproject.toml")
# Generated modules never name a tool or a ToolResult: a prelude makes the analysis and the
# codemods have work to do on them.
PRELUDE = (
    "from toolwire import ToolResult\n"
    "r: ToolResult = ToolResult.text('x')\n"
    "class Tool:\n"
    "    def execute(self, text: str) -> str:\n"
    "        return text\n"
)
BOUNDED = settings(
    max_examples=50, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def _encodable(source: str) -> bytes:
    try:
        data = source.encode("utf-8")
    except UnicodeEncodeError:
        assume(False)
        raise
    return data


@BOUNDED
@given(hypothesmith.from_grammar())
def test_flake8_plugin_never_raises(source: str) -> None:
    for text in (source, PRELUDE + source):
        tree = ast.parse(text)
        lines = text.splitlines(keepends=True)
        results = list(ToolwireChecker(tree, "fuzz.py", lines).run())
        for line, column, message, _ in results:
            assert line >= 1 and column >= 0
            assert message[:2] == "TW" and "internal error" not in message, message


def _migrate(path: Path) -> str:
    summary = migrate_paths([str(path)], lambda _: CONFIG, mode="write")
    problems = [e.as_text() for e in summary.all_errors]
    assert not problems, problems
    return path.read_text(encoding="utf-8")


@BOUNDED
@given(hypothesmith.from_grammar())
def test_codemod_never_raises_parses_and_is_idempotent(source: str) -> None:
    data = _encodable(source)
    with tempfile.TemporaryDirectory() as work:
        plain = Path(work) / "plain.py"
        plain.write_bytes(data)
        _migrate(plain)
        if "execute" not in source and "ToolResult" not in source:
            assert plain.read_bytes() == data  # no candidate: not touched, byte for byte
        tooled = Path(work) / "tooled.py"
        tooled.write_bytes(PRELUDE.encode() + data)
        once = _migrate(tooled)
        ast.parse(once)
        assert "ToolResult.text(text)" in once  # the prelude's tool was migrated
        assert _migrate(tooled) == once


@settings(max_examples=1, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(hypothesmith.from_grammar(), min_size=5, max_size=5))
def test_flake8_subprocess_over_generated_files(sources: list[str]) -> None:
    with tempfile.TemporaryDirectory() as work:
        names = []
        for index, source in enumerate(sources):
            path = Path(work) / f"gen_{index}.py"
            path.write_bytes(_encodable(PRELUDE + source))
            names.append(path.name)
        proc = subprocess.run(
            [sys.executable, "-m", "flake8", "-j1", "--select", "TW", *names],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        output = proc.stdout + proc.stderr
        assert "Traceback" not in output and "internal error" not in output, output
        # Every file has the prelude's unmigrated tool: each must be reported.
        for name in names:
            assert f"{name}:4:5: TW101" in proc.stdout, output


@BOUNDED
@given(hypothesmith.from_grammar("eval_input"))
def test_migrated_return_is_the_old_expression(expression: str) -> None:
    """Any expression returned by a tool becomes the one argument of the call, AST-equal."""
    expression = expression.strip()
    assume("\n" not in expression and "\r" not in expression and "\x0c" not in expression)
    assume(not expression.startswith("*"))  # `return *a` is not valid; `return *a, b` is
    source = f"class T:\n    def execute(self) -> str:\n        return {expression}\n"
    try:
        old_tree = ast.parse(source)
    except (SyntaxError, ValueError):
        assume(False)
        raise
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "tool.py"
        path.write_bytes(_encodable(source))
        summary = migrate_paths([str(path)], lambda _: CONFIG, mode="write")
        assert not summary.all_errors, [e.as_text() for e in summary.all_errors]
        new_tree = ast.parse(path.read_text(encoding="utf-8"))

    def returned(tree: ast.Module) -> ast.expr:
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
        func = cls.body[0]
        assert isinstance(func, ast.FunctionDef) and isinstance(func.body[0], ast.Return)
        assert func.body[0].value is not None
        return func.body[0].value

    old, new = returned(old_tree), returned(new_tree)
    if summary.items("migrated"):
        assert isinstance(new, ast.Call) and len(new.args) == 1 and not new.keywords
        assert ast.dump(new.args[0]) == ast.dump(old)
    else:
        assert ast.dump(new) == ast.dump(old)


DEEP_KINDS = {
    "not": lambda n: "not " * n + "1",
    "neg": lambda n: "-" * n + "1",
    "plus": lambda n: " + ".join(["'a'"] * n),
    "pow": lambda n: "**".join(["2"] * n),
    "ternary": lambda n: "r if b else " * n + "r",
    "lambda": lambda n: "lambda: " * n + "1",
    "attr": lambda n: "a" + ".b" * n,
    "call": lambda n: "f" + "()" * n,
    "subscript": lambda n: "a" + "[0]" * n,
    "and": lambda n: " and ".join(["a"] * n),
}


@pytest.mark.parametrize("kind", sorted(DEEP_KINDS))
def test_migrate_deep_nesting_of_every_kind(kind: str) -> None:
    """Just under the limit: migrated; past it: one TW000 naming the line; never a crash."""
    from toolwire.lint.codemods.depth import MAX_DEPTH as _MAX_DEPTH

    with tempfile.TemporaryDirectory() as work:
        for depth in (_MAX_DEPTH // 2, 3 * _MAX_DEPTH):
            path = Path(work) / f"deep_{depth}.py"
            path.write_text(
                "class T:\n    def execute(self) -> str:\n"
                f"        x = {DEEP_KINDS[kind](depth)}\n        return 'x'\n"
            )
        proc = subprocess.run(
            [str(Path(sys.executable).with_name("toolwire")), "migrate", "--jobs", "2", "."],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert "Traceback" not in proc.stderr and proc.returncode in (0, 2), proc.stderr[-1000:]
        shallow = (Path(work) / f"deep_{_MAX_DEPTH // 2}.py").read_text()
        deep = (Path(work) / f"deep_{3 * _MAX_DEPTH}.py").read_text()
        assert "-> ToolResult:" in shallow
        assert "-> str:" in deep
        # CPython's parser refuses some kinds itself (line 1); the depth guard names line 3.
        assert re.search(rf"deep_{3 * _MAX_DEPTH}\.py:[13]:\d+: TW000 ", proc.stderr)
