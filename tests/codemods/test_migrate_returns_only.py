"""Pass two of `toolwire migrate` does not analyse a migrated module again when pass one
only wrapped the returns of functions that nothing in it names again, and nothing in its
old text could be rewired (`finish._returns_only`). The run must be the same, byte for
byte, as the run that analyses every such module: on every vendored real-package file,
under the generic tool methods (where the short-cut applies) and under each preset, and on
modules that use their own tool in every way a name can be written."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from codemod_helpers import FIXTURES

from toolwire.lint.codemods import finish, runner
from toolwire.lint.codemods.runner import FileOutcome, migrate_paths
from toolwire.lint.config import Config, config_from_table

GENERIC = {"tool-methods": ["_run", "_arun", "run", "execute", "forward", "call", "__call__"]}
PRESETS = ["langchain", "crewai", "mcp", "fastmcp", "openai-agents", "pydantic-ai", "llamaindex"]

# ten tool classes: the run tests known tool names as a set of identifiers, not one regex
TOOLS = "\n\n".join(
    f"class Tool{i}:\n    def run(self, query: str) -> str:\n        return query.upper()\n"
    for i in range(10)
)
# each module defines a tool and names its tool method again in one way
OWN_USES = {
    "backslash": "print(Tool().\\\n    run('q'))",
    "comment": "print((Tool().  # the tool\n    run)('q'))",
    "alias": "handler = Tool().run\nprint(handler('q').upper())",
    "getattr": "print(getattr(Tool(), 'run')('q'))",
    "string": "NAME = 'run'\nprint(getattr(Tool(), NAME)('q'))",
    "nested": "def go() -> None:\n    print(str(Tool().run('q')))",
    "lone": "",
}
OWN = (
    "class Tool:\n    def run(self, query: str) -> str:\n        return query.upper()\n\n\n{use}\n"
)


def _corpus(root: Path) -> Path:
    for source in FIXTURES.rglob("*.py.txt"):
        target = root / source.relative_to(FIXTURES).with_suffix("")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
    shutil.copytree(FIXTURES / "app", root / "app")
    (root / "own").mkdir()
    (root / "own" / "tools.py").write_text(TOOLS, encoding="utf-8")
    for name, use in OWN_USES.items():
        (root / "own" / f"{name}.py").write_text(OWN.format(use=use), encoding="utf-8")
    # its own tool is named nowhere else, but it prints a result of its own making
    mixed = (
        "from toolwire import ToolResult\n\n\nclass Local:\n"
        "    def execute(self, query: str) -> str:\n        return query\n\n\n"
        "print(ToolResult.text('q'))\n"
    )
    (root / "own" / "mixed.py").write_text(mixed, encoding="utf-8")
    return root


def _seen(outcome: FileOutcome) -> tuple[Any, ...]:
    return (
        outcome.path,
        outcome.diff,
        [f.as_text() for f in outcome.review],
        [f.as_text() for f in outcome.errors],
        [e.as_text() for e in (*outcome.migrated, *outcome.skipped, *outcome.left)],
        (outcome.sinks, outcome.str_calls, outcome.changed, outcome.kept),
    )


def _run(root: Path, config: Config) -> list[tuple[Any, ...]]:
    summary = migrate_paths([str(root)], lambda _: config, mode="diff", jobs=1)
    return [_seen(o) for o in summary.outcomes]


TABLES = [
    pytest.param(GENERIC, id="generic"),
    *(pytest.param({"presets": [p]}, id=p) for p in PRESETS),
]


@pytest.mark.parametrize("table", TABLES)
def test_the_short_cut_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: dict[str, Any]
) -> None:
    root = _corpus(tmp_path)
    config = config_from_table(table)
    taken: list[str] = []
    real = finish._returns_only

    def counted(task: finish.FinishTask, *args: Any) -> bool:
        verdict = real(task, *args)
        if verdict:
            taken.append(task.path.name)
        return verdict

    monkeypatch.setattr(finish, "_returns_only", counted)
    quick = _run(root, config)
    monkeypatch.setattr(finish, "_returns_only", lambda *_: False)
    assert quick == _run(root, config)
    assert any(seen[1] for seen in quick)  # the corpus migrates something
    if table is GENERIC:
        # the short-cut was taken, and only where nothing names the tool method again
        assert "lone.py" in taken
        assert not {"mixed.py", *(f"{n}.py" for n in OWN_USES if n != "lone")} & set(taken)


def test_a_use_of_the_new_result_in_its_own_module_is_still_rewired(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    seen = {Path(s[0]).name: s for s in _run(root, config_from_table(GENERIC))}
    assert b"print(Tool().run('q').content)" in seen["nested.py"][1]
    for name in ("backslash.py", "comment.py", "mixed.py"):
        assert [f.split(": ")[1].split()[0] for f in seen[name][2]] == ["TW204"]


# Pass two does not even open a file pass one left as it was when its bytes hold nothing
# wire-content could start from (`runner._alone`, `Prefilter.quiet`): the same run again.
DICT_CALL = "def go(tools: dict) -> None:\n    print(tools['a'].run('q'))\n"
NAMED_ONLY = "from own.tools import Tool3\n\nREGISTRY = [Tool3]\n"
SINKLESS = "import json\n\n\ndef dump(data: dict) -> str:\n    return json.dumps(data)\n"


@pytest.mark.parametrize("table", TABLES)
def test_files_left_alone_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: dict[str, Any]
) -> None:
    root = _corpus(tmp_path)
    for name, text in {"dicts.py": DICT_CALL, "named.py": NAMED_ONLY, "plain.py": SINKLESS}.items():
        (root / "own" / name).write_text(text, encoding="utf-8")
    config = config_from_table(table)
    alone: list[str] = []
    real = runner._alone

    def counted(outcome: FileOutcome, *args: Any) -> bool:
        verdict = real(outcome, *args)
        if verdict:
            alone.append(Path(outcome.path).name)
        return verdict

    monkeypatch.setattr(runner, "_alone", counted)
    quick = _run(root, config)
    monkeypatch.setattr(runner, "_alone", lambda *_: False)
    assert quick == _run(root, config)
    if table is GENERIC:  # ten tool classes and more: the known names are not searched alone
        assert {"plain.py", "named.py"} <= set(alone)
        assert "dicts.py" not in alone
        dicts = next(seen for seen in quick if seen[0].endswith("dicts.py"))
        assert any("through a dict of tools" in event for event in dicts[4])


def test_a_run_that_knows_a_few_tools_reads_every_file(tmp_path: Path) -> None:
    root = tmp_path / "few"
    (root / "pkg").mkdir(parents=True)
    tools = "class Tool:\n    def run(self, query: str) -> str:\n        return query\n"
    (root / "pkg" / "tools.py").write_text(tools, encoding="utf-8")
    (root / "pkg" / "named.py").write_text(
        NAMED_ONLY.replace("own.tools", "pkg.tools").replace("Tool3", "Tool"), encoding="utf-8"
    )
    summary = migrate_paths([str(root)], lambda _: config_from_table(GENERIC), mode="diff")
    first = {Path(o.path).name: o for o in summary.outcomes}
    assert first["named.py"].quiet  # nothing in it but a known name...
    # ...which a run of a few known tools looks for as it is: pass two opened it
    assert not runner._alone(
        first["named.py"],
        config_from_table(GENERIC),
        frozenset({"pkg.tools.Tool"}),
        frozenset({"run"}),
    )
