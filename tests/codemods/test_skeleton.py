"""Pass one parses with LibCST only the bodies the plan can read (`codemods/skeleton.py`).

Equivalence: a migrate run with the skeleton and one parsing every file whole give the
same bytes and the same reports, on every example of codemods/*.md and rules/*.md and on
every vendored real package. Mutations: a body the plan reads is never blanked, and
blanking it by force does change the plan (so the case is one the relevance test needs).
"""

from __future__ import annotations

import ast
import dataclasses
import shutil
from pathlib import Path
from typing import Any

import libcst as cst
import pytest
from codemod_helpers import CODEMODS_DIR, FIXTURES, RULES_DIR, module_path, pairs, project

from toolwire.lint.catalog import parse_rule
from toolwire.lint.codemods import runner
from toolwire.lint.codemods.crossfile import CrossFile
from toolwire.lint.codemods.runner import Summary, migrate_paths, tool_returns_file
from toolwire.lint.codemods.skeleton import SENTINEL, denied_words, reads_strings, skeleton
from toolwire.lint.codemods.tool_returns.plan import ToolReturns
from toolwire.lint.config import Config, load_config

PASS_ONE = (
    "migrated",
    "skipped",
    "kept_tools",
    "wired",
    "results",
    "members",
    "known_tools",
    "returns_text",
    "returns_error",
    "returns_marked",
    "errors",
    "sinks",
    "str_calls",
    "review",
    "left",
    "changed",
    "kept",
    "diff",
)


def _whole(args: tuple[Path, Config, CrossFile]) -> Any:
    return tool_returns_file(*args, skeleton=False)


def _runs(
    monkeypatch: pytest.MonkeyPatch, paths: list[str], config: Config
) -> tuple[Summary, Summary]:
    bare = migrate_paths(paths, lambda _: config, mode="diff")
    with monkeypatch.context() as patch:
        patch.setattr(runner, "_pass_one", _whole)
        whole = migrate_paths(paths, lambda _: config, mode="diff")
    return bare, whole


def _assert_same(bare: Summary, whole: Summary) -> None:
    assert bare.as_json() == whole.as_json()
    assert bare.as_text() == whole.as_text()
    for one, two in zip(bare.outcomes, whole.outcomes, strict=True):
        for name in PASS_ONE:
            assert getattr(one, name) == getattr(two, name), (one.path, name)


def _blanked(paths: list[str], config: Config) -> int:
    """How many characters the skeleton blanks in these files (the test must test it)."""
    total = 0
    for name in paths:
        text = Path(name).read_text(encoding="utf-8")
        denied = denied_words(config, CrossFile())
        bare = skeleton(text, ast.parse(text), denied, reads_strings(config))
        total += 0 if bare is None else bare.blanked
    return total


def _example_cases() -> list[tuple[str, dict[str, Any], str, str]]:
    cases = [(p.id, p.config, p.module, p.before) for p in pairs(CODEMODS_DIR / "tool-returns.md")]
    cases += [(p.id, p.config, p.module, p.before) for p in pairs(CODEMODS_DIR / "wire-content.md")]
    for path in sorted(RULES_DIR.glob("TW*.md")):
        rule = parse_rule(path.read_text(encoding="utf-8"), path.name)
        if rule.fix in ("tool-returns", "wire-content"):
            cases += [(p.id, p.config, p.module, p.before) for p in pairs(path, rule.config)]
    return cases


EXAMPLES = _example_cases()


@pytest.mark.parametrize(
    ("case", "config", "module", "before"), EXAMPLES, ids=[c[0] for c in EXAMPLES]
)
def test_examples_same_with_skeleton(
    case: str,
    config: dict[str, Any],
    module: str,
    before: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = module_path(module)
    root = project(tmp_path, config, {name: before})
    loaded = load_config(root / "pyproject.toml")
    _assert_same(*_runs(monkeypatch, [str(root / name)], loaded))


def test_examples_are_blanked_somewhere(tmp_path: Path) -> None:
    """The examples exercise the skeleton: some of their bodies are blanked."""
    blanked = 0
    for index, (_, config, module, before) in enumerate(EXAMPLES):
        root = project(tmp_path / str(index), config, {module_path(module): before})
        loaded = load_config(root / "pyproject.toml")
        blanked += _blanked([str(root / module_path(module))], loaded)
    assert blanked > 0


REAL = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name.endswith("_real"))
PRESETS = {
    "crewai_real": "crewai",
    "fastmcp_real": "fastmcp",
    "google_adk_real": "google-adk",
    "langchain_real": "langchain",
    "mcp_real": "mcp",
    "openai_agents_real": "openai-agents",
    "pydantic_ai_real": "pydantic-ai",
}


@pytest.mark.parametrize("fixture", REAL, ids=[p.name for p in REAL])
def test_real_packages_same_with_skeleton(
    fixture: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    for source in fixture.rglob("*.py.txt"):
        target = root / source.relative_to(fixture).with_suffix("")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    paths = sorted(str(p) for p in root.rglob("*.py"))
    assert paths
    for presets in ([PRESETS[fixture.name]], list(PRESETS.values())):
        (root / "pyproject.toml").write_text(
            f"[tool.toolwire]\npresets = {presets!r}\n".replace("'", '"'), encoding="utf-8"
        )
        config = load_config(root / "pyproject.toml")
        _assert_same(*_runs(monkeypatch, paths, config))


def test_real_packages_are_blanked_somewhere(tmp_path: Path) -> None:
    blanked = 0
    for fixture in REAL:
        root = tmp_path / fixture.name
        root.mkdir()
        table = f'[tool.toolwire]\npresets = ["{PRESETS[fixture.name]}"]\n'
        (root / "pyproject.toml").write_text(table, encoding="utf-8")
        config = load_config(root / "pyproject.toml")
        paths = []
        for source in fixture.rglob("*.py.txt"):
            target = root / source.name.removesuffix(".txt")
            shutil.copyfile(source, target)
            paths.append(str(target))
        blanked += _blanked(paths, config)
    assert blanked > 0


# -- mutations: bodies the plan reads ------------------------------------------------------


def _blank_by_force(text: str, name: str) -> str:
    """`text` with the body of every function called `name` blanked as the skeleton does."""
    lines = text.split("\n")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            first, last = node.body[0].lineno, node.end_lineno or node.lineno
            indent = lines[first - 1][: node.body[0].col_offset]
            lines[first - 1] = f"{indent}...  # {SENTINEL}"
            for number in range(first, last):
                lines[number] = f"{indent}#"
    return "\n".join(lines)


def _plan(config: Config, tree: cst.Module, path: str, text: str) -> tuple[Any, str]:
    migration = ToolReturns(config, CrossFile())
    new = migration.run(tree, path, text)
    report = dataclasses.asdict(migration.report)
    return report, new.code


MUTATIONS = {
    # a helper that uses the str `_run` returns: the tool is skipped (`used_as_str`)
    "used_as_str": (
        {"tool-methods": ["_run"]},
        "helper",
        """\
class Search:
    def _run(self, query: str) -> str:
        return "found " + query

    def helper(self, query):
        first = self._run(query)
        return first.upper()
""",
    ),
    # `global` rebinds a module function that is handed to a framework factory
    "global": (
        {"presets": ["llamaindex"]},
        "rebind",
        '''\
from llama_index.core.tools import FunctionTool


def search(query: str) -> str:
    """Search."""
    return "found " + query


def rebind():
    global search
    search = None


TOOL = FunctionTool.from_defaults(fn=search)
''',
    ),
    # a nested function handed to a factory is a tool: its body is what is migrated
    "nested factory tool": (
        {"presets": ["llamaindex"]},
        "search",
        '''\
from llama_index.core.tools import FunctionTool


def build():
    def search(query: str) -> str:
        """Search."""
        return "found " + query

    return FunctionTool.from_defaults(fn=search)
''',
    ),
    # a name in another script than ASCII is a word too
    "non-ascii name": (
        {"presets": ["llamaindex"]},
        "éxito",
        '''\
from llama_index.core.tools import FunctionTool


def éxito(query: str) -> str:
    """Search."""
    return "found " + query


TOOL = FunctionTool.from_defaults(fn=éxito)
''',
    ),
    # a method a tool spec lists by name in a string
    "listed method": (
        {"presets": ["llamaindex"]},
        "lookup",
        '''\
from llama_index.core.tools.tool_spec.base import BaseToolSpec


class Spec(BaseToolSpec):
    spec_functions = ["lookup"]

    def lookup(self, key: str) -> str:
        """Look up."""
        return "value of " + key
''',
    ),
    # a nested tool in a function, whose scope imports the result class under a name
    "local import": (
        {"presets": ["langchain"]},
        "make",
        '''\
from langchain_core.tools import tool


def make():
    from toolwire import ToolResult as Answer

    @tool
    def search(query: str) -> str:
        """Search."""
        return "found " + query

    return search, Answer
''',
    ),
    # a method of a class beside a nested tool uses it: the hand-over is not its only use
    "beside a nested tool": (
        {"presets": ["fastmcp"]},
        "again",
        '''\
from fastmcp import FastMCP

mcp = FastMCP("demo")


def build():
    def search(query: str) -> str:
        """Search."""
        return "found " + query

    class Helper:
        def again(self, q):
            return search(q)

    mcp.add_tool(search)
    return Helper
''',
    ),
    # a nested tool declared `global` (in a function the walk does not enter: it is
    # named elsewhere) binds a module name: a module function's body may use it
    "global nested tool": (
        {"presets": ["fastmcp"]},
        "again",
        '''\
from fastmcp import FastMCP

mcp = FastMCP("demo")


def build():
    global search

    def search(query: str) -> str:
        """Search."""
        return "found " + query

    mcp.add_tool(search)


def again(q):
    return search(q)


build()
''',
    ),
    # a module constant bound to a framework's instance, read in a body that hands it a tool
    "instance constant": (
        {"presets": ["fastmcp"]},
        "setup",
        '''\
from fastmcp import FastMCP

mcp = FastMCP("demo")


def search(query: str) -> str:
    """Search."""
    return "found " + query


def setup():
    mcp.add_tool(search)
''',
    ),
}


@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_bodies_the_plan_reads_are_kept(case: str, tmp_path: Path) -> None:
    table, name, text = MUTATIONS[case]
    root = project(tmp_path, table, {"app/mutant.py": text})
    path = str(root / "app" / "mutant.py")
    config = load_config(root / "pyproject.toml")
    full = _plan(config, cst.parse_module(text), path, text)
    forced = _plan(config, cst.parse_module(_blank_by_force(text, name)), path, text)
    assert forced != full  # the body matters to the plan
    bare = skeleton(text, ast.parse(text), denied_words(config, CrossFile()), reads_strings(config))
    kept = text if bare is None else bare.text
    assert SENTINEL not in kept.split("\n")[_def_line(text, name)]
    assert _plan(config, cst.parse_module(kept), path, text) == full
    whole = tool_returns_file(Path(path), config, skeleton=False)
    fast = tool_returns_file(Path(path), config)
    assert whole == fast


def _def_line(text: str, name: str) -> int:
    """The 0-based line of the first body line of function `name`."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node.body[0].lineno - 1
    raise AssertionError(name)


def test_a_body_no_plan_reads_is_blanked_and_spliced_back(tmp_path: Path) -> None:
    """The other side: a helper naming nothing the plan reads is blanked, and the
    migrated file holds it whole, from the original text."""
    text = """\
class Search:
    def _run(self, query: str) -> str:
        return "found " + query

    def helper(self, words):
        joined = " ".join(words)
        return joined.upper()
"""
    root = project(tmp_path, {"tool-methods": ["_run"]}, {"app/plain.py": text})
    path = root / "app" / "plain.py"
    config = load_config(root / "pyproject.toml")
    bare = skeleton(text, ast.parse(text), denied_words(config, CrossFile()), reads_strings(config))
    assert bare is not None and bare.blanked > 0
    assert SENTINEL in bare.text.split("\n")[_def_line(text, "helper")]
    fast = tool_returns_file(path, config)
    assert fast == tool_returns_file(path, config, skeleton=False)
    assert fast.new_text is not None and "joined.upper()" in fast.new_text
    assert SENTINEL not in fast.new_text


CONSTANTS = """\
import logging

from fastmcp import FastMCP

logger = logging.getLogger(__name__)
LIMIT: int = 5
mcp = FastMCP("demo")
server = mcp
alias = server
Handler = Search = None


class Search:
    def _run(self, query: str) -> str:
        return "found " + query


def quiet(words):
    logger.info("joined %s", LIMIT)
    return " ".join(words)


def reach():
    return alias


def make():
    return Handler
"""


def test_module_constants_block_a_body_only_when_bound_to_what_the_plan_reads(
    tmp_path: Path,
) -> None:
    """A plain module constant (`logger`, `LIMIT`) no longer keeps the bodies that read
    it; one bound to a denied word (`mcp = FastMCP(...)`), to such a name (`alias =
    server = mcp`, followed to a fixed point) or also bound otherwise (`Handler`, whose
    statement names the class `Search`) still does."""
    root = project(
        tmp_path, {"presets": ["fastmcp"], "tool-methods": ["_run"]}, {"app/c.py": CONSTANTS}
    )
    path = root / "app" / "c.py"
    config = load_config(root / "pyproject.toml")
    tree = ast.parse(CONSTANTS)
    bare = skeleton(CONSTANTS, tree, denied_words(config, CrossFile()), reads_strings(config))
    assert bare is not None
    lines = bare.text.split("\n")
    assert SENTINEL in lines[_def_line(CONSTANTS, "quiet")]
    assert SENTINEL not in lines[_def_line(CONSTANTS, "reach")]
    assert SENTINEL not in lines[_def_line(CONSTANTS, "make")]
    fast = tool_returns_file(path, config)
    assert fast == tool_returns_file(path, config, skeleton=False)
    assert fast.new_text is not None and 'logger.info("joined %s", LIMIT)' in fast.new_text


# -- parsing.nesting: skipping short multi-line nodes keeps every verdict ---------------------


def _deep(shape: str, depth: int) -> str:
    if shape == "parens":  # CPython allows 200 nested brackets
        return "x = " + "(" * min(depth, 190) + "1" + ")" * min(depth, 190) + "\n"
    if shape == "attribute":
        return "x = " + "a." * depth + "b\n"
    if shape == "and":
        return "x = " + "a and " * depth + "b\n"
    return "x = " + shape * depth + "1\n"


def _nesting_texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.py.txt")]
    for depth in (10, 499, 500, 501, 999, 1000, 1001):
        for shape in ("parens", "attribute", "and", "not ", "-", "x if y else ", "lambda: "):
            line = _deep(shape, depth)
            texts += [line, f"def f():\n    {line}", f"x = [\n    {line[4:]}]\n"]
    return texts


def test_nesting_with_the_text_gives_the_same_verdicts() -> None:
    from toolwire.lint.codemods.parsing import nesting

    checked = 0
    for text in _nesting_texts():
        try:
            tree = ast.parse(text)
        except (SyntaxError, RecursionError, MemoryError):
            continue
        for limit in (20, 100, 1000):
            assert nesting(tree, limit, text) == nesting(tree, limit)
            checked += nesting(tree, limit) is not None
    assert checked > 10  # deep enough to be refused, several times


def test_a_deep_blanked_body_is_refused_as_the_whole_text_is(tmp_path: Path) -> None:
    """The nesting of the whole module is judged, not the skeleton's: a helper's deep
    expression (blanked) still refuses the file, with the same finding; the file holds no
    change that would send it down the whole path anyway."""
    deep = " and ".join(["x"] * 1200)
    text = f"""\
class Search:
    def _run(self, query: str) -> int:
        return len(query)

    def helper(self, x):
        y = {deep}
        return y
"""
    root = project(tmp_path, {"tool-methods": ["_run"]}, {"app/deep.py": text})
    path = root / "app" / "deep.py"
    config = load_config(root / "pyproject.toml")
    bare = skeleton(text, ast.parse(text), denied_words(config, CrossFile()), False)
    assert bare is not None and deep not in bare.text
    fast = tool_returns_file(path, config)
    assert fast == tool_returns_file(path, config, skeleton=False)
    assert [e.message for e in fast.errors] == [
        "cannot migrate: an expression nested over 1000 levels deep"
    ]
