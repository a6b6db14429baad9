"""The plugin never gets in mypy's way: caches, suppressions, bad configs, config files."""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from mypy_harness import fixture_table, make_project, run_mypy, toml_table
from test_multi_module import CASES, case_files

MODULES = {
    "pkg/tools.py": textwrap.dedent(
        """
        from toolwire import ToolResult

        def run_tool() -> ToolResult:
            return ToolResult.text("done")
        """
    ),
    "pkg/loop.py": textwrap.dedent(
        """
        import logging

        from app.chat import ChatMessage

        from pkg.tools import run_tool

        def turn(call_id: str) -> list[object]:
            result = run_tool()
            logging.info("%s", result)
            return [
                str(result),
                ChatMessage.tool_result(call_id, f"{result}"),
                ChatMessage.tool_result(call_id, result.content),
            ]
        """
    ).lstrip(),
}
# (line, code) in pkg/loop.py
EXPECTED = Counter({(9, "TW204"): 1, (11, "TW201"): 1, (12, "TW202"): 1, (12, "TW301"): 1})


def _project(root: Path, **kwargs: Any) -> Path:
    return make_project(root, MODULES, **kwargs)


def test_warm_cache_equals_cold(tmp_path: Path) -> None:
    """Two runs with one --cache-dir give the same report, with and without changes.

    On the multi-module cases, so that semantic-analysis findings (TW101, TW105) and
    type-checking ones both come back from a warm cache.
    """
    root = tmp_path / "proj"
    modules = {path: text for case in CASES for path, text in case_files(case).items()}
    config = make_project(root, {**MODULES, **modules})
    cache = tmp_path / "cache"
    targets = ["pkg", *sorted(CASES)]
    cold = run_mypy(root, targets, config=config, cache_dir=cache)
    warm = run_mypy(root, targets, config=config, cache_dir=cache)
    assert cold.toolwire("pkg/loop.py") == EXPECTED
    assert {tw for m in cold.messages if (tw := m.tw)} >= {"TW101", "TW105", "TW201", "TW301"}
    assert sorted(warm.stdout.splitlines()) == sorted(cold.stdout.splitlines())
    assert warm.status == cold.status
    # A changed dependency: its dependents are rechecked, and the report does not change.
    for changed in (root / "pkg" / "tools.py", root / "tool_interface" / "interface.py"):
        changed.write_text(changed.read_text(encoding="utf-8") + "\nVERSION = 2\n")
    again = run_mypy(root, targets, config=config, cache_dir=cache)
    assert sorted(again.stdout.splitlines()) == sorted(cold.stdout.splitlines())


def test_toolwire_config_change_invalidates_the_cache(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    cache = tmp_path / "cache"
    config = _project(root)
    first = run_mypy(root, ["pkg"], config=config, cache_dir=cache)
    assert first.toolwire("pkg/loop.py") == EXPECTED
    _project(root, table=fixture_table(ignore=["TW204"]))
    second = run_mypy(root, ["pkg"], config=config, cache_dir=cache)
    assert second.toolwire("pkg/loop.py") == EXPECTED - Counter({(9, "TW204"): 1}), second.stderr


# Says on stderr each time the plugin reads the config.
_SPY = (
    "import toolwire.lint.mypy._settings as settings\n"
    "_load = settings.load_settings\n"
    "def spy(*args, **kwargs):\n"
    "    print('toolwire-test: config read', file=sys.stderr)\n"
    "    return _load(*args, **kwargs)\n"
    "settings.load_settings = spy\n"
)


def _reads(run: Any) -> int:
    return int(run.stderr.count("toolwire-test: config read"))


def test_warm_cache_reads_no_config_until_an_input_changes(tmp_path: Path) -> None:
    """A warm run reuses the last run's settings fingerprint instead of reading the config;
    a changed input (the table, a damaged entry) is read again and rechecks."""
    root = tmp_path / "proj"
    cache = tmp_path / "cache"
    config = _project(root)
    cold = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    warm = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    # One read per table: the project's, and the defaults of toolwire's own modules when
    # they come from a checkout on PYTHONPATH rather than from site-packages.
    assert _reads(cold) >= 1 and _reads(warm) == 0, cold.stderr + warm.stderr
    assert cold.toolwire("pkg/loop.py") == EXPECTED
    assert sorted(warm.stdout.splitlines()) == sorted(cold.stdout.splitlines())
    for entry in (cache / "toolwire").iterdir():
        entry.write_text("{not json", encoding="utf-8")
    damaged = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    assert _reads(damaged) >= 1 and damaged.toolwire("pkg/loop.py") == EXPECTED
    _project(root, table=fixture_table(ignore=["TW204"]))
    changed = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    assert _reads(changed) >= 1
    assert changed.toolwire("pkg/loop.py") == EXPECTED - Counter({(9, "TW204"): 1})


def test_a_stale_remembered_fingerprint_is_replaced(tmp_path: Path) -> None:
    """A remembered fingerprint that is not what the config says (an input the digest
    does not cover changed) rechecks, and the next full read stores the right one."""
    root = tmp_path / "proj"
    cache = tmp_path / "cache"
    config = _project(root)
    cold = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    (entry,) = (cache / "toolwire").iterdir()
    data = json.loads(entry.read_text(encoding="utf-8"))
    right = data["fingerprints"]  # one per config file used
    stale = dict.fromkeys(right, "stale")
    entry.write_text(json.dumps({**data, "fingerprints": stale}), encoding="utf-8")
    healed = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    assert _reads(healed) >= 1, healed.stderr  # every module rechecked: the hooks load it
    assert sorted(healed.stdout.splitlines()) == sorted(cold.stdout.splitlines())
    assert json.loads(entry.read_text(encoding="utf-8"))["fingerprints"] == right
    warm = run_mypy(root, ["pkg"], config=config, cache_dir=cache, prelude=_SPY)
    assert _reads(warm) == 0 and warm.toolwire("pkg/loop.py") == EXPECTED


def test_a_nearer_pyproject_invalidates_the_cache(tmp_path: Path) -> None:
    """Discovery walks up from each checked file: a `[tool.toolwire]` table that appears
    nearer than the one found before is a changed config, with a warm cache too."""
    root = tmp_path / "proj"
    cache = tmp_path / "cache"
    mypy_ini = _project(root, kind="mypy.ini")
    config = root / "ci" / "mypy.ini"
    config.parent.mkdir()
    config.write_text(mypy_ini.read_text(encoding="utf-8"), encoding="utf-8")
    first = run_mypy(root, ["pkg"], config=config, cache_dir=cache)
    assert first.toolwire("pkg/loop.py") == EXPECTED, first.stdout + first.stderr
    # Its sinks by position: the project root of this table has no app/ to read them from.
    sinks = ["app.chat.ChatMessage.tool_result:1=content", "app.chat.ChatMessage.user:0=content"]
    nearer = fixture_table(ignore=["TW204"], **{"wire-sinks": sinks})
    (root / "pkg" / "pyproject.toml").write_text(
        toml_table("tool.toolwire", nearer), encoding="utf-8"
    )
    second = run_mypy(root, ["pkg"], config=config, cache_dir=cache)
    assert second.toolwire("pkg/loop.py") == EXPECTED - Counter({(9, "TW204"): 1}), second.stderr


def test_disable_error_code(tmp_path: Path, shared_cache: Path) -> None:
    config = _project(tmp_path)
    flags = ["--disable-error-code", "toolwire-stringify"]
    run = run_mypy(tmp_path, ["pkg"], config=config, cache_dir=shared_cache, args=flags)
    assert run.toolwire("pkg/loop.py") == Counter({(12, "TW301"): 1}), run.stdout + run.stderr


def test_type_ignore(tmp_path: Path, shared_cache: Path) -> None:
    loop = MODULES["pkg/loop.py"].splitlines()
    loop[11] += "  # type: ignore[toolwire-wire]"  # TW202 on the same line is not ignored
    loop[10] += "  # type: ignore[toolwire-wire]"  # the wrong code: TW201 is toolwire-stringify
    loop[8] += "  # type: ignore[toolwire-stringify]"
    config = make_project(tmp_path, {**MODULES, "pkg/loop.py": "\n".join(loop) + "\n"})
    run = run_mypy(
        tmp_path, ["pkg"], config=config, cache_dir=shared_cache, args=["--warn-unused-ignores"]
    )
    assert run.toolwire("pkg/loop.py") == Counter({(11, "TW201"): 1, (12, "TW202"): 1})
    assert 'Unused "type: ignore' in run.stdout


@pytest.mark.parametrize(
    "broken",
    [
        'result-class = "not a dotted name"\n',
        "unknown-key = 1\n",
        "wire-sinks = [\n",  # not TOML at all
        'wire-sinks = ["app.chat.ChatMessage.tool_result:no_such_param"]\n',
    ],
    ids=["bad-name", "unknown-key", "bad-toml", "bad-param"],
)
def test_broken_toolwire_config_stops_mypy(tmp_path: Path, broken: str) -> None:
    """One line naming the file (and the key), exit 2, as in every front-end: going on with
    the defaults (no wire sinks) would pass a gate that checks nothing."""
    config = _project(tmp_path, raw_toolwire="[tool.toolwire]\n" + broken, kind="mypy.ini")
    run = run_mypy(tmp_path, ["pkg"], config=config)
    stderr = run.stderr
    assert run.status == 2, run.stdout + run.stderr
    reports = [line for line in stderr.splitlines() if line.startswith("toolwire: error:")]
    assert len(reports) == 1, stderr
    assert str(tmp_path / "pyproject.toml") in reports[0]
    assert "Traceback" not in stderr and not run.internal_errors()


@pytest.mark.parametrize("kind", ["pyproject", "mypy.ini", "setup.cfg"])
def test_loads_from_every_config_file(tmp_path: Path, shared_cache: Path, kind: str) -> None:
    config = _project(tmp_path, kind=kind)
    run = run_mypy(tmp_path, ["pkg"], config=config, cache_dir=shared_cache)
    assert run.toolwire("pkg/loop.py") == EXPECTED, run.stdout + run.stderr


@pytest.mark.parametrize(
    ("kind", "option"), [("pyproject", "toolwire_config"), ("setup.cfg", "x_toolwire_config")]
)
def test_toolwire_config_option(tmp_path: Path, kind: str, option: str) -> None:
    """`toolwire_config = path` in the mypy section beats the pyproject.toml found by walking."""
    config = _project(tmp_path, kind=kind, mypy_options={option: "toolwire.toml"})
    (tmp_path / "toolwire.toml").write_text(
        toml_table("tool.toolwire", fixture_table(ignore=["TW204"])), encoding="utf-8"
    )
    run = run_mypy(tmp_path, ["pkg"], config=config)
    assert run.toolwire("pkg/loop.py") == EXPECTED - Counter({(9, "TW204"): 1}), run.stdout
    if option == "x_toolwire_config":  # mypy's own config reader ignores x_ options silently
        assert "Unrecognized option" not in run.stderr


def test_missing_toolwire_config_file(tmp_path: Path) -> None:
    config = _project(tmp_path, kind="mypy.ini", mypy_options={"toolwire_config": "nope.toml"})
    run = run_mypy(tmp_path, ["pkg"], config=config)
    assert run.status == 2
    assert "toolwire: error:" in run.stderr and "nope.toml" in run.stderr


def test_internal_error_is_one_note(tmp_path: Path) -> None:
    prelude = (
        "import toolwire.lint.mypy.hooks as plugin\n"
        "def broken(*args, **kwargs):\n"
        "    raise RuntimeError('boom')\n"
        "plugin.holds = broken\n"
    )
    config = _project(tmp_path)
    # No shared cache: mypy replays a fresh module's errors from it without the hooks.
    run = run_mypy(tmp_path, ["pkg"], config=config, prelude=prelude)
    notes = [m for m in run.messages if "toolwire: internal error in plugin" in m.text]
    assert len(notes) == 1 and notes[0].severity == "note", run.stdout
    assert "boom" in notes[0].text
    assert "Traceback" not in run.stdout + run.stderr
    assert run.status in (0, 1)


def test_no_result_class_in_the_program(tmp_path: Path, shared_cache: Path) -> None:
    """A program that never imports toolwire gets no toolwire error (and no crash)."""
    modules = {"plain/m.py": "import json\n\nprint(json.dumps({'a': 1}), str(1), f'{2}')\n"}
    config = make_project(tmp_path, modules)
    run = run_mypy(tmp_path, ["plain"], config=config, cache_dir=shared_cache)
    assert run.status == 0, run.stdout + run.stderr
    assert run.toolwire() == Counter()


def test_parallel_workers_agree(tmp_path: Path) -> None:
    """mypy's parallel build (`--num-workers`) loads the plugin in each worker."""
    config = _project(tmp_path)
    run = run_mypy(tmp_path, ["pkg"], config=config, cache_dir=tmp_path / "cache", args=["-n", "2"])
    assert run.toolwire("pkg/loop.py") == EXPECTED, run.stdout + run.stderr


def test_tool_bases_restrict_tw101(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """
        from abc import ABC, abstractmethod

        from app.tools import Tool
        from toolwire import ToolResult

        class Other(ABC):
            @abstractmethod
            def execute(self) -> ToolResult: ...

        class Legacy(Tool):
            def execute(self, arguments: dict[str, str]) -> str:  # TW101: a tool
                return ""

        class NotATool(Other):
            def execute(self) -> str:  # Other is not in tool-bases
                return ""
        """
    ).lstrip()
    table = fixture_table(**{"tool-bases": ["app.tools.Tool"]})
    config = make_project(tmp_path, {"pkg/tools.py": source}, table=table)
    run = run_mypy(tmp_path, ["pkg"], config=config)
    assert run.toolwire("pkg/tools.py") == Counter({(11, "TW101"): 1}), run.stdout
