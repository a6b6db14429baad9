"""TW001 (unused suppressions) beyond its rule examples: off by default, judged only for
the codes a run checks; through the real `toolwire check` and flake8."""

from __future__ import annotations

from pathlib import Path

from frontend_helpers import CONFIG, run_flake8, run_toolwire, text_findings, write

SOURCE = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    print(result.content)  # noqa: TW204
    return str(result)  # noqa: TW201
"""


def _codes(root: Path, *args: str) -> list[tuple[int, str]]:
    done = run_toolwire(["check", *args, "."], cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return [(line, code) for _, line, _, code in text_findings(done.stdout)]


def test_off_by_default_and_on_when_selected(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "mod.py": SOURCE})
    assert _codes(root) == []
    assert _codes(root, "--select", "TW") == [(5, "TW001")]
    (root / "pyproject.toml").write_text(CONFIG + 'select = ["TW"]\n', encoding="utf-8")
    assert _codes(root) == [(5, "TW001")]
    flake8 = run_flake8(["--select", "TW", "mod.py"], root)
    assert [(line, code) for _, line, _, code in text_findings(flake8.stdout)] == [(5, "TW001")]


def test_codes_the_run_does_not_check_are_not_judged(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": CONFIG, "mod.py": SOURCE})
    # TW204 is not checked: its comment may be needed, nothing says it is not.
    assert _codes(root, "--select", "TW001") == []
    assert _codes(root, "--select", "TW001,TW2", "--ignore", "TW204") == []
    assert _codes(root, "--select", "TW001,TW204") == [(5, "TW001")]


def test_tw001_is_suppressed_as_any_code(tmp_path: Path) -> None:
    source = SOURCE.replace("# noqa: TW204", "# noqa: TW204, TW001")
    root = write(tmp_path, {"pyproject.toml": CONFIG, "mod.py": source})
    assert _codes(root, "--select", "TW") == []
    ignores = CONFIG + '[tool.toolwire.per-file-ignores]\n"mod.py" = ["TW001"]\n'
    root = write(tmp_path / "p", {"pyproject.toml": ignores, "mod.py": SOURCE})
    assert _codes(root, "--select", "TW") == []


def test_add_noqa_then_a_fix_leaves_an_unused_comment(tmp_path: Path) -> None:
    leak = SOURCE.replace("  # noqa: TW204", "").replace("  # noqa: TW201", "")
    root = write(tmp_path, {"pyproject.toml": CONFIG, "mod.py": leak})
    assert run_toolwire(["check", "--add-noqa", "."], cwd=root).returncode == 0
    assert _codes(root, "--select", "TW") == []
    fixed = (root / "mod.py").read_text().replace("str(result)", "result.content")
    (root / "mod.py").write_text(fixed, encoding="utf-8")
    assert _codes(root, "--select", "TW") == [(6, "TW001")]
