"""`toolwire check --baseline`: record the findings of today, fail only on new ones; through
the real `toolwire` command."""

from __future__ import annotations

import json
import os
from pathlib import Path

from frontend_helpers import (
    CONFIG,
    LEAK,
    assert_no_traceback,
    run_toolwire,
    text_findings,
    write,
)

NEW_LEAK = """

def log_it(result: ToolResult) -> None:
    print(result)
"""
TWIN = "\n\ndef again(result: ToolResult) -> str:\n    return str(result)\n"


def _check(root: Path, *args: str, cwd: Path | None = None) -> tuple[int, list[str], str]:
    done = run_toolwire(["check", *args], cwd=cwd or root)
    assert_no_traceback(done)
    found = [f"{line}:{code}" for _, line, _, code in text_findings(done.stdout)]
    return done.returncode, found, done.stderr


def _entries(path: Path) -> list[tuple[str, str, int]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(e["path"], e["code"], e["count"]) for e in data["findings"]]


def test_writes_the_baseline_then_hides_what_it_records(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "pkg/leak.py": LEAK + TWIN})
    assert _check(root, ".")[:2] == (1, ["5:TW201", "9:TW301", "13:TW201"])
    status, found, err = _check(root, "--baseline", "tw.json", ".")
    assert (status, found) == (0, [])
    assert err == "toolwire: recorded 3 findings in tw.json\n"
    text = (root / "tw.json").read_text(encoding="utf-8")
    assert text.endswith("}\n")
    # Identical findings: one entry counted twice; sorted by path, code and message.
    assert _entries(root / "tw.json") == [("pkg/leak.py", "TW201", 2), ("pkg/leak.py", "TW301", 1)]
    assert list(json.loads(text)["findings"][0]) == [
        "fingerprint",
        "count",
        "path",
        "code",
        "message",
    ]
    status, found, err = _check(root, "--baseline", "tw.json", ".")
    assert (status, found) == (0, [])
    assert "no findings" in err
    # Paths are relative to the baseline: the same file works from a subdirectory.
    status, found, _ = _check(root, "--baseline", "../tw.json", ".", cwd=root / "pkg")
    assert (status, found) == (0, [])
    assert (root / "tw.json").read_text(encoding="utf-8") == text  # reading never writes


def test_moved_findings_stay_hidden_and_a_new_leak_fails(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    assert _check(root, "--baseline", "tw.json", ".")[0] == 0
    (root / "leak.py").write_text('"""Moved."""\n\nimport os\n\n' + LEAK, encoding="utf-8")
    assert _check(root, "--baseline", "tw.json", ".")[:2] == (0, [])
    (root / "leak.py").write_text('"""Moved."""\n\n' + LEAK + NEW_LEAK, encoding="utf-8")
    status, found, _ = _check(root, "--baseline", "tw.json", ".")
    assert (status, found) == (1, ["15:TW204"])
    done = run_toolwire(["check", "--baseline", "tw.json", "--format", "json", "."], cwd=root)
    assert done.returncode == 1
    assert [f["line"] for f in json.loads(done.stdout)["findings"]] == [15]


def test_a_third_identical_finding_is_new(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK + TWIN})
    assert _check(root, "--baseline", "tw.json", ".")[0] == 0
    (root / "leak.py").write_text(LEAK + TWIN + TWIN.replace("again", "third"))
    assert _check(root, "--baseline", "tw.json", ".")[:2] == (1, ["17:TW201"])


def test_update_drops_fixed_entries_and_notes_them(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK + TWIN})
    assert _check(root, "--baseline", "tw.json", ".")[0] == 0
    (root / "leak.py").write_text(LEAK.replace("str(result)", "result.content"))
    status, found, err = _check(root, "--baseline", "tw.json", ".")
    assert (status, found) == (0, [])
    assert "toolwire: note: 2 baseline entries of tw.json are fixed; --update-baseline" in err
    status, found, err = _check(root, "--baseline", "tw.json", "--update-baseline", ".")
    assert (status, found) == (0, [])
    assert err == "toolwire: recorded 1 finding in tw.json; dropped 2 fixed entries\n"
    assert _entries(root / "tw.json") == [("leak.py", "TW301", 1)]
    assert "note" not in _check(root, "--baseline", "tw.json", ".")[2]


def test_a_run_over_part_of_the_tree_keeps_the_rest(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "a.py": LEAK, "b.py": LEAK})
    assert _check(root, "--baseline", "tw.json", ".")[0] == 0
    status, found, err = _check(root, "--baseline", "tw.json", "a.py")
    assert (status, found) == (0, []) and "note" not in err  # b.py was not looked at
    status, _, err = _check(root, "--baseline", "tw.json", "--select", "TW2", ".")
    assert status == 0 and "note" not in err  # TW301 was not looked for
    _check(root, "--baseline", "tw.json", "--update-baseline", "a.py")
    assert [p for p, _, _ in _entries(root / "tw.json")] == ["a.py", "a.py", "b.py", "b.py"]


def test_the_config_key_is_relative_to_the_config_file(tmp_path: Path) -> None:
    config = CONFIG + 'baseline = "ci/toolwire-baseline.json"\n'
    root = write(tmp_path, {"pyproject.toml": config, "src/leak.py": LEAK})
    (root / "ci").mkdir()
    status, _, err = _check(root, ".", cwd=root / "src")
    assert status == 0 and "recorded 2 findings in " in err
    assert _entries(root / "ci" / "toolwire-baseline.json")[0][0] == "../src/leak.py"
    assert _check(root, ".")[:2] == (0, [])
    (root / "src" / "leak.py").write_text(LEAK + NEW_LEAK, encoding="utf-8")
    assert _check(root, ".")[:2] == (1, ["13:TW204"])
    # --baseline on the command line wins over the key.
    assert _check(root, "--baseline", "other.json", ".")[0] == 0
    assert (root / "other.json").is_file()


def test_a_malformed_baseline_is_one_error_and_exit_2(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    cases = {
        "{": "not valid JSON",
        "[]": "expected an object with version 1",
        '{"version": 1, "findings": [{"fingerprint": "x", "count": 1}]}': "'fingerprint'",
        '{"version": 1, "findings": [{"fingerprint": "' + "a" * 64 + '", "count": 0}]}': "count",
    }
    for text, problem in cases.items():
        (root / "tw.json").write_text(text, encoding="utf-8")
        status, found, err = _check(root, "--baseline", "tw.json", ".")
        assert (status, found) == (2, []), err
        assert len(err.splitlines()) == 1 and err.startswith("toolwire: tw.json: "), err
        assert problem in err
        assert (root / "tw.json").read_text(encoding="utf-8") == text  # never overwritten
    bad = 'baseline = ""\n'
    (root / "pyproject.toml").write_text(CONFIG + bad, encoding="utf-8")
    status, _, err = _check(root, ".")
    assert status == 2 and "[tool.toolwire] baseline: expected a file path" in err


def test_input_errors_are_not_recorded_and_still_exit_2(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK, "bad.py": "def (:\n"})
    status, found, err = _check(root, "--baseline", "tw.json", ".")
    assert status == 2 and found == ["1:TW000"]
    assert "recorded 2 findings" in err
    assert [c for _, c, _ in _entries(root / "tw.json")] == ["TW201", "TW301"]


def test_update_without_a_baseline_is_a_usage_error(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    status, _, err = _check(root, "--update-baseline", ".")
    assert status == 2 and "--update-baseline needs --baseline" in err


def test_the_baseline_keeps_its_mode_when_updated(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    _check(root, "--baseline", "tw.json", ".")
    os.chmod(root / "tw.json", 0o640)
    _check(root, "--baseline", "tw.json", "--update-baseline", ".")
    assert (root / "tw.json").stat().st_mode & 0o777 == 0o640


def test_help_lists_the_adoption_options(tmp_path: Path) -> None:
    done = run_toolwire(["check", "--help"], cwd=tmp_path)
    assert done.returncode == 0
    for option in ("--baseline FILE", "--update-baseline", "--add-noqa"):
        assert option in done.stdout
