"""Fingerprints that survive moved code, SARIF's column kind, and GitLab Code Quality,
through the real `toolwire check`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from frontend_helpers import CONFIG, LEAK, run_toolwire, write

# Two findings with the same path, code and message: told apart by their order.
TWICE = LEAK + "\n\ndef again(result: ToolResult) -> str:\n    return str(result)\n"


def _check(root: Path, fmt: str) -> Any:
    done = run_toolwire(["check", "--format", fmt, "."], cwd=root)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def _prints(root: Path) -> dict[str, tuple[str, int]]:
    return {f["fingerprint"]: (f["code"], f["line"]) for f in _check(root, "json")["findings"]}


def test_json_fingerprints_stay_when_code_moves_and_tell_twins_apart(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": TWICE})
    before = _prints(root)
    assert len(before) == 3  # two str() with the same message, one wire leak
    (root / "leak.py").write_text('"""Moved down."""\n\nimport os\n\n' + TWICE, encoding="utf-8")
    after = _prints(root)
    assert after.keys() == before.keys()
    assert [after[p][1] - before[p][1] for p in before] == [4, 4, 4]
    (root / "leak.py").write_text(TWICE.replace("str(result)", "repr(result)", 1))
    changed = _prints(root)
    assert changed.keys() != before.keys()  # a different finding is a different print


def test_sarif_has_the_column_kind_and_the_json_fingerprints(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": TWICE})
    [run] = _check(root, "sarif")["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    sarif = [r["partialFingerprints"]["toolwire/v1"] for r in run["results"]]
    assert sarif == [f["fingerprint"] for f in _check(root, "json")["findings"]]


def test_gitlab_code_quality_report(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK, "bad\x1bname.py": LEAK})
    issues = _check(root, "gitlab")
    findings = _check(root, "json")["findings"]
    assert [i["fingerprint"] for i in issues] == [f["fingerprint"] for f in findings]
    for issue, finding in zip(issues, findings, strict=True):
        assert issue["type"] == "issue"
        assert issue["check_name"] == finding["code"]
        assert issue["description"] == f"{finding['code']} {finding['message']}"
        assert issue["location"] == {
            "path": finding["path"],
            "lines": {"begin": finding["line"], "end": finding["end_line"]},
        }
        wire = finding["code"].startswith(("TW3", "TW4"))
        assert issue["severity"] == ("critical" if wire else "major")
        assert issue["categories"] == (["Security"] if wire else ["Bug Risk"])
    assert "bad\\x1bname.py" in {i["location"]["path"] for i in issues}  # escaped as everywhere


def test_gitlab_report_of_a_clean_tree_is_an_empty_list(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "ok.py": "x = 1\n"})
    done = run_toolwire(["check", "--format", "gitlab", "."], cwd=root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
    assert "no findings" in done.stderr
