"""Adopting toolwire on a real open-source codebase, step by step, as docs/ci.md says.

The codebase is langchain-community 0.4.2's source distribution from PyPI (2 000 modules,
about 140 LangChain tools that return `str`, and its own unit tests), downloaded once into
a cache and unpacked into a scratch directory. Nobody on this project wrote it. Through the
real `toolwire` command:

1. `toolwire init` writes a table that names the framework's presets and no tool methods
   guessed from names (an API wrapper's `run -> str` is no tool);
2. `toolwire check` reports the migration backlog and nothing that needs a ToolResult
   (there is none yet), then a baseline records it and CI is green;
3. one package of tools (file management) is migrated, and the package's own unit tests
   still pass;
4. a new leak written after that fails CI with only the new findings;
5. `toolwire check --fix` fixes what it says it fixed, CI is green again, and the tree's own
   tests and the new code still work.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest
from adoption_helpers import BIN

PACKAGE = "langchain-community==0.4.2"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "toolwire-tests"
TOOLS = "langchain_community/tools/file_management"
UNIT_TESTS = "tests/unit_tests/tools/file_management"

LEAK = """\
from langchain_core.messages import ToolMessage

from langchain_community.tools.file_management.read import ReadFileTool


def read_message(root_dir: str, path: str, call_id: str) -> ToolMessage:
    result = ReadFileTool(root_dir=root_dir)._run(path)
    return ToolMessage(content=str(result), tool_call_id=call_id)
"""


def _sdist() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    found = sorted(CACHE.glob("langchain_community-0.4.2.tar.gz"))
    if found:
        return found[0]
    scratch = CACHE / f"download-{os.getpid()}"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            *(PACKAGE, "-d", str(scratch)),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"cannot download {PACKAGE} from the registry:\n{done.stderr}")
        pytest.skip(f"cannot download {PACKAGE} (no registry?)")
    archive = next(scratch.glob("*.tar.gz"))
    os.replace(archive, CACHE / archive.name)  # atomic: a concurrent run sees all or nothing
    shutil.rmtree(scratch, ignore_errors=True)
    return CACHE / archive.name


@pytest.fixture(scope="module")
def codebase(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("adopt")
    with tarfile.open(_sdist()) as archive:
        archive.extractall(root, filter="data")
    return root / "langchain_community-0.4.2"


def _toolwire(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "toolwire"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
        env={**os.environ, "NO_COLOR": "1"},
    )


def _own_tests(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    # The package's conftest needs its dev tools (blockbuster); the tests themselves do not.
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--noconftest",
            *("--rootdir", str(root), "-o", "addopts=", "-W", "ignore", UNIT_TESTS, *extra),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(root)},
    )


def _codes(report: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code in re.findall(r"^\S+:\d+:\d+: (TW\d{3}) ", report, re.M):
        counts[code] = counts.get(code, 0) + 1
    return counts


def test_a_team_adopts_toolwire_on_langchain_community(codebase: Path) -> None:
    root = codebase
    before = _own_tests(root)
    assert before.returncode == 0 and " passed" in before.stdout, before.stdout[-2000:]

    # 1. init: the framework's presets, no tool methods guessed from a name and `-> str`.
    done = _toolwire("init", cwd=root)
    assert done.returncode == 0, done.stderr
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert "langchain" in table["toolwire"]["presets"]
    assert table["toolwire"]["tool-methods"] == []

    # 2. The backlog: tools not migrated yet, and content built from what a tool also
    # returns as its artifact; nothing that needs a ToolResult, since there is none yet.
    checked = _toolwire("check", ".", cwd=root)
    assert checked.returncode == 1, checked.stderr
    backlog = _codes(checked.stdout)
    assert backlog.get("TW101", 0) >= 100, backlog
    assert set(backlog) <= {"TW101", "TW302"}, backlog
    recorded = _toolwire("check", "--baseline", "toolwire-baseline.json", ".", cwd=root)
    assert recorded.returncode == 0, recorded.stderr
    assert f"recorded {sum(backlog.values())} findings" in recorded.stderr + recorded.stdout
    with (root / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write('baseline = "toolwire-baseline.json"\n')
    green = _toolwire("check", ".", cwd=root)
    assert green.returncode == 0, green.stdout + green.stderr

    # 3. One package migrated: its TW101s go, and its own tests still pass.
    migrated = _toolwire("migrate", TOOLS, cwd=root)
    assert migrated.returncode == 0, migrated.stderr
    assert re.search(r"\b7 changed\b", migrated.stdout), migrated.stdout
    assert _baselined(root, TOOLS) == {"TW101": 7}
    assert _toolwire("check", "--update-baseline", ".", cwd=root).returncode == 0
    assert _baselined(root, TOOLS) == {}
    after = _own_tests(root)
    assert after.returncode == 0, after.stdout[-2000:]
    assert _passed(after) == _passed(before)

    # 4. A new leak fails CI with only itself.
    (root / TOOLS / "report.py").write_text(LEAK, encoding="utf-8")
    red = _toolwire("check", "--format", "json", ".", cwd=root)
    assert red.returncode == 1
    new = sorted((f["code"], f["line"]) for f in json.loads(red.stdout)["findings"])
    assert new == [("TW201", 8), ("TW301", 8)], new

    # 5. --fix fixes what it says, CI is green, the tree's tests and the new code work.
    fixed = _toolwire("check", "--fix", ".", cwd=root)
    assert "2 fixed, 0 remaining" in fixed.stdout + fixed.stderr, fixed.stdout + fixed.stderr
    assert "content=result.content" in (root / TOOLS / "report.py").read_text(encoding="utf-8")
    assert _toolwire("check", ".", cwd=root).returncode == 0
    probe = root / "tests" / "unit_tests" / "tools" / "file_management" / "test_report_probe.py"
    probe.write_text(
        "from langchain_community.tools.file_management.report import read_message\n\n\n"
        "def test_the_model_reads_the_file(tmp_path):\n"
        '    (tmp_path / "a.txt").write_text("hello", encoding="utf-8")\n'
        '    assert read_message(str(tmp_path), "a.txt", "c1").content == "hello"\n'
        '    assert "no such file" in read_message(str(tmp_path), "b.txt", "c2").content\n',
        encoding="utf-8",
    )
    last = _own_tests(root)
    assert last.returncode == 0, last.stdout[-2000:]
    assert _passed(last) == _passed(before) + 1


def _passed(done: subprocess.CompletedProcess[str]) -> int:
    found = re.search(r"(\d+) passed", done.stdout)
    assert found, done.stdout[-2000:]
    return int(found.group(1))


def _baselined(root: Path, under: str) -> dict[str, int]:
    data = json.loads((root / "toolwire-baseline.json").read_text(encoding="utf-8"))
    counts: dict[str, int] = {}
    for entry in data["findings"]:
        if entry["path"].startswith(under + "/"):
            counts[entry["code"]] = counts.get(entry["code"], 0) + entry["count"]
    return counts
