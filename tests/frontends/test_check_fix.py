"""`toolwire check --fix` and `--diff`, run as the installed console script on real files.

The fixes are the wire-content codemod's, made only where a reported finding carries
them: the rules' `Fixed` pairs, select/ignore/per-file-ignores/noqa, TW000 files.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from codemod_helpers import RULES_DIR, Pair, fixture_config, module_path, pairs, project
from frontend_helpers import (
    BROKEN,
    CONFIG,
    assert_no_traceback,
    json_findings,
    run_toolwire,
    text_findings,
    write,
)

from toolwire.lint.catalog import parse_rule

# Two safe fixes (a `str()` of a result, a whole result at the openai preset's sink) and
# one a person must settle (an f-string: should the prefix stay?).
SOURCE = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": result}


def labelled(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"x{result}"}
"""
FIXED = SOURCE.replace("return str(result)", "return result.content").replace(
    '"content": result}', '"content": result.content}'
)
LEFT = [(13, "TW202"), (13, "TW301")]  # the f-string, for a person


def _tree(root: Path, config: str = CONFIG) -> Path:
    return write(root, {"pyproject.toml": config, "a.py": SOURCE, "b.py": SOURCE})


def _codes(output: str) -> list[tuple[str, int, str]]:
    return sorted((path, line, code) for path, line, _, code in text_findings(output))


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_fix_rewrites_the_safe_findings_and_reports_what_remains(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    result = run_toolwire(["check", "--fix"], root)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr  # the f-string remains
    assert (root / "a.py").read_text(encoding="utf-8") == FIXED
    assert (root / "b.py").read_text(encoding="utf-8") == FIXED
    remaining = [(name, line, code) for name in ("a.py", "b.py") for line, code in LEFT]
    assert _codes(result.stdout) == sorted(remaining)
    # before: TW201 at `str()`, TW301 at the dict, and the two left, in each file
    assert "toolwire: 8 findings (4 fixed, 4 remaining) in 2 files" in result.stderr

    again = run_toolwire(["check"], root)
    assert _codes(again.stdout) == sorted(remaining)


def test_fix_of_everything_exits_zero_and_a_second_fix_changes_nothing(tmp_path: Path) -> None:
    code = SOURCE.split("\n\ndef labelled")[0] + "\n"
    root = write(tmp_path / "proj", {"pyproject.toml": CONFIG, "a.py": code})
    first = run_toolwire(["check", "--fix", "--format", "json"], root)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["findings"] == [] and data["summary"]["fixed"] == 2
    fixed = _snapshot(root)
    assert b"str(result)" not in fixed["a.py"] and b"result.content}" in fixed["a.py"]

    second = run_toolwire(["check", "--fix"], root)
    assert second.returncode == 0, second.stderr
    assert second.stdout == ""
    assert "toolwire: 0 findings (0 fixed, 0 remaining) in 1 file" in second.stderr
    assert _snapshot(root) == fixed
    assert run_toolwire(["check"], root).returncode == 0


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_diff_prints_a_patch_that_applies_and_writes_nothing(tmp_path: Path, tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    root = _tree(tmp_path / "proj")
    before = _snapshot(root)
    result = run_toolwire(["check", "--diff"], root)
    assert_no_traceback(result)
    assert result.returncode == 1, result.stderr
    assert _snapshot(root) == before  # nothing on disk changed
    assert result.stdout.startswith("--- a/a.py\n+++ b/a.py\n")
    assert "+    return result.content\n" in result.stdout
    assert "toolwire: would fix 4 findings in 2 files" in result.stderr

    (tmp_path / "fix.patch").write_text(result.stdout, encoding="utf-8")
    command = (
        ["git", "apply", str(tmp_path / "fix.patch")]
        if tool == "git"
        else ["patch", "-p1", "-i", str(tmp_path / "fix.patch")]
    )
    applied = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    assert applied.returncode == 0, applied.stderr
    # The patch is exactly what --fix does.
    fixed = _tree(tmp_path / "other")
    assert run_toolwire(["check", "--fix"], fixed).returncode == 1
    assert _snapshot(root) == _snapshot(fixed)

    clean = run_toolwire(["check", "--diff"], root)
    assert clean.returncode == 0 and clean.stdout == "", clean.stderr
    assert "toolwire: would fix 0 findings in 0 files" in clean.stderr


@pytest.mark.parametrize(
    ("how", "kept"),
    [
        (["--ignore", "TW201"], "return str(result)"),
        (["--select", "TW201"], '"content": result}'),
        (["--config", "ignored.toml"], "return str(result)"),
    ],
)
def test_an_ignored_code_is_not_fixed(tmp_path: Path, how: list[str], kept: str) -> None:
    root = _tree(tmp_path / "proj")
    (root / "ignored.toml").write_text(
        '[tool.toolwire]\npresets = ["openai"]\nper-file-ignores = {"*.py" = ["TW201"]}\n',
        encoding="utf-8",
    )
    result = run_toolwire(["check", "--fix", *how], root)
    assert_no_traceback(result)
    text = (root / "a.py").read_text(encoding="utf-8")
    assert kept in text
    assert text != SOURCE  # the code that is not ignored was fixed


def test_a_suppressed_finding_is_not_fixed(tmp_path: Path) -> None:
    noqa = SOURCE.replace("return str(result)", "return str(result)  # noqa: TW201")
    root = write(tmp_path / "proj", {"pyproject.toml": CONFIG, "a.py": noqa})
    result = run_toolwire(["check", "--fix"], root)
    text = (root / "a.py").read_text(encoding="utf-8")
    assert "return str(result)  # noqa: TW201" in text
    assert '"content": result.content}' in text, result.stderr


def test_a_file_that_does_not_parse_is_tw000_and_the_others_are_fixed(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    (root / "broken.py").write_text(BROKEN, encoding="utf-8")
    result = run_toolwire(["check", "--fix", "--format", "json"], root)
    assert_no_traceback(result)
    assert result.returncode == 2, result.stderr
    found = json_findings(result.stdout)
    assert [f for f in found if f[0] == "broken.py"] == [("broken.py", 1, 12, "TW000")]
    assert (root / "a.py").read_text(encoding="utf-8") == FIXED
    assert (root / "broken.py").read_text(encoding="utf-8") == BROKEN

    _tree(tmp_path / "again")
    (tmp_path / "again" / "broken.py").write_text(BROKEN, encoding="utf-8")
    diff = run_toolwire(["check", "--diff"], tmp_path / "again")
    assert diff.returncode == 2
    assert "broken.py:1:12: TW000" in diff.stderr
    assert "+++ b/a.py" in diff.stdout


def test_fix_refuses_stdin(tmp_path: Path) -> None:
    root = _tree(tmp_path / "proj")
    result = run_toolwire(["check", "--fix", "-"], root, stdin=SOURCE)
    assert result.returncode == 2
    assert "stdin" in result.stderr and "Traceback" not in result.stderr


def _wire_content_pairs() -> list[Pair]:
    found = []
    for path in sorted(RULES_DIR.glob("TW*.md")):
        rule = parse_rule(path.read_text(encoding="utf-8"), path.name)
        if rule.fix == "wire-content":
            found += pairs(path, {**fixture_config(), **rule.config})
    return found


RULE_PAIRS = _wire_content_pairs()


def test_every_wire_content_rule_has_a_fixed_pair() -> None:
    assert {p.doc for p in RULE_PAIRS} == {"TW201.md", "TW301.md"}


@pytest.mark.parametrize("pair", RULE_PAIRS, ids=[p.id for p in RULE_PAIRS])
def test_rule_fixed_pair_is_what_check_fix_does(pair: Pair, tmp_path: Path) -> None:
    """The `Fixed` pair of a rule whose fix is wire-content is what `check --fix` makes."""
    name = module_path(pair.module)
    root = project(tmp_path, pair.config, {name: pair.before})
    result = run_toolwire(["check", "--fix", name], root)
    assert_no_traceback(result)
    assert (root / name).read_text(encoding="utf-8") == pair.after
    assert result.returncode == 0, result.stdout + result.stderr
