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


# -- --statistics, --quiet, --output-file and --color ------------------------------------------


def test_statistics_count_each_code_most_first(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": TWICE})
    done = run_toolwire(["check", "--statistics", "."], cwd=root)
    assert done.returncode == 1  # findings still fail the run
    assert done.stdout.splitlines() == [
        "2\tTW201\tresult-stringified",
        "1\tTW301\twire-payload-not-content",
    ]
    rows = json.loads(run_toolwire(["check", "--statistics", "--format", "json"], cwd=root).stdout)
    assert rows == [
        {"code": "TW201", "name": "result-stringified", "count": 2},
        {"code": "TW301", "name": "wire-payload-not-content", "count": 1},
    ]
    wrong = run_toolwire(["check", "--statistics", "--format", "sarif"], cwd=root)
    assert wrong.returncode == 2 and "--statistics" in wrong.stderr


def test_quiet_keeps_the_findings_and_drops_the_remarks(tmp_path: Path) -> None:
    root = write(tmp_path, {"leak.py": LEAK})  # no sinks configured: a note
    loud = run_toolwire(["check", "."], cwd=root)
    quiet = run_toolwire(["check", "-q", "."], cwd=root)
    assert "note:" in loud.stderr and "toolwire: 1 finding" in loud.stderr
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (loud.returncode, loud.stdout, "")


def test_output_file_holds_what_stdout_would(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    for fmt in ("text", "json", "sarif", "github", "gitlab", "junit"):
        piped = run_toolwire(["check", "--format", fmt, "."], cwd=root)
        filed = run_toolwire(["check", "--format", fmt, "-o", "report.out", "."], cwd=root)
        assert (filed.returncode, filed.stdout) == (piped.returncode, "")
        assert (root / "report.out").read_text(encoding="utf-8") == piped.stdout, fmt
    bad = run_toolwire(["check", "--output-file", "no/such\x1bdir/r.txt", "."], cwd=root)
    assert bad.returncode == 2
    assert bad.stderr.splitlines()[0] == (
        "toolwire: cannot write no/such\\x1bdir/r.txt: No such file or directory"
    )


TOOL = "class Search:\n    def run(self, q: str) -> str:\n        return q\n"


def _diff_on_a_terminal(root: Path, *options: str, env: dict[str, str]) -> str:
    return _on_a_terminal(root, "migrate", "--diff", "--method", "run", *options, env=env)


def _on_a_terminal(root: Path, *arguments: str, env: dict[str, str], status: int = 0) -> str:
    """A toolwire command with stdout on a pseudo-terminal, as a user's shell has it."""
    import os
    import pty
    import subprocess

    from frontend_helpers import toolwire_command

    parent, child = pty.openpty()
    done = subprocess.run(
        [*toolwire_command(), *arguments, "."],
        cwd=root,
        stdout=child,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **env},
        check=False,
    )
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(parent)
    assert done.returncode == status
    return b"".join(chunks).decode("utf-8", "replace")


def test_migrate_color_follows_the_terminal_no_color_and_the_option(tmp_path: Path) -> None:
    root = write(tmp_path, {"tool.py": TOOL})
    plain = {"NO_COLOR": ""}
    assert "\x1b[32m" in _diff_on_a_terminal(root, env=plain)
    assert "\x1b[" not in _diff_on_a_terminal(root, env={"NO_COLOR": "1"})
    assert "\x1b[" not in _diff_on_a_terminal(root, "--color", "never", env=plain)
    assert "\x1b[32m" in _diff_on_a_terminal(root, "--color", "always", env={"NO_COLOR": "1"})
    piped = run_toolwire(["migrate", "--diff", "--method", "run", "."], cwd=root)
    assert "+        return ToolResult.text(q)" in piped.stdout and "\x1b[" not in piped.stdout
    forced = run_toolwire(["migrate", "--diff", "--method", "run", "--color", "always"], cwd=root)
    assert "\x1b[32m" in forced.stdout


def test_check_color_follows_the_terminal_no_color_and_the_option(tmp_path: Path) -> None:
    # As ruff: the path bold, the code red; never in a pipe, a file or under NO_COLOR.
    root = write(tmp_path, {"pyproject.toml": CONFIG, "leak.py": LEAK})
    plain = {"NO_COLOR": ""}
    shown = _on_a_terminal(root, "check", env=plain, status=1)
    assert "\x1b[1mleak.py\x1b[0m:" in shown and "\x1b[1;31mTW201\x1b[0m" in shown
    assert "\x1b[" not in _on_a_terminal(root, "check", env={"NO_COLOR": "1"}, status=1)
    assert "\x1b[" not in _on_a_terminal(root, "check", "--color", "never", env=plain, status=1)
    piped = run_toolwire(["check", "."], cwd=root)
    assert "leak.py:" in piped.stdout and "\x1b[" not in piped.stdout
    forced = run_toolwire(["check", "--color", "always", "."], cwd=root)
    assert "\x1b[1;31mTW201" in forced.stdout
    into = run_toolwire(["check", "--color", "always", "-o", "out.txt", "."], cwd=root)
    assert into.returncode == 1 and "\x1b[" not in (root / "out.txt").read_text(encoding="utf-8")
    patch = run_toolwire(["check", "--diff", "--color", "always", "."], cwd=root)
    assert "\x1b[32m" in patch.stdout and "\x1b[31m" in patch.stdout
    assert "\x1b[" not in run_toolwire(["check", "--diff", "."], cwd=root).stdout
