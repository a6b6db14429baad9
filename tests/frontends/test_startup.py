"""A one-file `toolwire check` (pre-commit, an editor on save) is mostly start-up: it must
not import what it does not use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from frontend_helpers import CONFIG, LEAK, write

# What a one-file check of a module with findings, in the text format, never needs.
NOT_NEEDED = (
    "libcst",
    "tomlkit",
    "pathspec",
    "toolwire.lint.codemods",
    "toolwire.lint.catalog",  # SARIF and `toolwire rules` only
    "toolwire.lint.reporters.json_report",
    "toolwire.lint.reporters.sarif",
    "toolwire.lint.reporters.github",
    "toolwire.lint.reporters.gitlab",
    "importlib.resources",
    "difflib",
    "tempfile",
)


# What the analysis needs, which a cache hit does not (nor the checks' discovery, pkgutil).
NOT_NEEDED_ON_A_HIT = (
    "pkgutil",
    "toolwire.lint.analysis.names",
    "toolwire.lint.analysis.run",
    "toolwire.lint.analysis.flow",
    "toolwire.lint.checks",
    "toolwire.lint.prefilter",
)

# What the console script runs (`from toolwire.lint.cli import main; main()`), plus a dump at
# exit of `sys.modules` (`-X importtime` misses what `importlib.import_module` loads), of how
# many times the suppression comments were looked for with the tokenizer, and of toolwire's
# dataclasses whose methods were compiled from source text (`dataclasses` does that for each
# class when it is built, ~1 ms of start-up each on Python 3.11; `records.record` does not).
ENTRY = (
    "import atexit, dataclasses, json, sys, tokenize\n"
    "passes = []\n"
    "generate = tokenize.generate_tokens\n"
    "tokenize.generate_tokens = lambda readline: passes.append(1) or generate(readline)\n"
    "def compiled():\n"
    "    return sorted(\n"
    "        f'{c.__module__}.{c.__qualname__}'\n"
    "        for name, module in list(sys.modules.items()) if name.startswith('toolwire')\n"
    "        for c in vars(module).values()\n"
    "        if isinstance(c, type) and c.__module__ == name and dataclasses.is_dataclass(c)\n"
    "        and any(getattr(getattr(c, m, None), '__code__', None) is not None\n"
    "                and getattr(c, m).__code__.co_filename == '<string>'\n"
    "                for m in ('__init__', '__eq__', '__repr__', '__setattr__')))\n"
    "atexit.register(lambda: print(json.dumps([sorted(sys.modules), len(passes), compiled()]),"
    " file=sys.__stderr__))\n"
    "sys.argv[0] = 'toolwire'\n"
    "from toolwire.lint.cli import main\n"
    "main()\n"
)


class Run(NamedTuple):
    modules: set[str]  # loaded
    passes: int  # of the tokenizer
    stderr: str
    compiled: list[str]  # toolwire's dataclasses with methods compiled from text


def run_entry(args: list[str], root: Path, stdin: str | None = None) -> Run:
    """What one run on LEAK loaded and did."""
    result = subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        cwd=root,
        input=stdin or "",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr[-2000:]  # the findings of LEAK
    assert "TW201" in result.stdout and "TW301" in result.stdout
    modules, passes, compiled = json.loads(result.stderr.splitlines()[-1])
    return Run(set(modules), passes, result.stderr, compiled)


def loaded_by(args: list[str], root: Path, stdin: str | None = None) -> set[str]:
    return run_entry(args, root, stdin).modules


def unneeded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in names))


@pytest.mark.parametrize("how", ["path", "stdin"])
def test_a_one_file_check_imports_only_what_it_uses(tmp_path: Path, how: str) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "app/leak.py": LEAK})
    if how == "path":
        modules = loaded_by(["check", "app/leak.py"], root)
    else:
        modules = loaded_by(["check", "--stdin-filename", "app/leak.py", "-"], root, LEAK)
    # the parse of the report is right: what the run uses is there
    assert {"click", "toolwire.lint.engine", "toolwire.lint.reporters.text"} <= modules
    assert {"toolwire.lint.checks.tw201", "toolwire.lint.checks.tw301"} <= modules
    assert not unneeded(modules, NOT_NEEDED)
    assert "pkgutil" not in modules  # the checks are found by a listing of their directory


def test_a_cache_hit_loads_no_analysis(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "app/leak.py": LEAK})
    cold = loaded_by(["check", "app/leak.py"], root)
    assert "toolwire.lint.analysis.run" in cold  # the first run analyses (and fills the cache)
    modules, _, stderr, _ = run_entry(["check", "--verbose", "app/leak.py"], root)
    assert "0 analysed, 1 reused" in stderr
    assert not unneeded(modules, NOT_NEEDED + NOT_NEEDED_ON_A_HIT)


@pytest.mark.parametrize(
    ("comment", "passes"),
    [("", 0), ("  # noqa: F401", 1), ("  # toolwire: ignore[TW999]", 1)],
)
def test_only_a_module_with_a_suppression_comment_is_tokenized(
    tmp_path: Path, comment: str, passes: int
) -> None:
    """A module that imports toolwire names it, yet holds no suppression comment: the
    tokenizer (its first use compiles a large regex) is for a module with one."""
    source = LEAK.replace(
        "from toolwire import ToolResult", f"from toolwire import ToolResult{comment}"
    )
    root = write(tmp_path, {"pyproject.toml": CONFIG})
    args = ["check", "--stdin-filename", "app/leak.py", "-"]
    assert run_entry(args, root, source).passes == passes


@pytest.mark.parametrize("how", ["path", "stdin"])
def test_a_one_file_check_compiles_no_dataclass_methods(tmp_path: Path, how: str) -> None:
    """The records a one-file check builds (the model, the config, the findings, the
    report, the analysis's) share their methods: none is compiled from text at start-up."""
    root = write(tmp_path, {"pyproject.toml": CONFIG, "app/leak.py": LEAK})
    if how == "path":
        run = run_entry(["check", "--no-cache", "app/leak.py"], root)
    else:
        run = run_entry(["check", "--stdin-filename", "app/leak.py", "-"], root, LEAK)
    assert "toolwire.lint.analysis.run" in run.modules  # the analysis ran: its records too
    assert {"toolwire.lint.model", "toolwire.lint.config", "toolwire.lint.findings"} <= run.modules
    assert run.compiled == []
