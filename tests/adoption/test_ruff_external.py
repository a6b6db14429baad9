"""ruff and toolwire side by side: `lint.external = ["TW"]` keeps our `# noqa` codes.

Real ruff, real files. Without `external`, ruff's noqa hygiene (RUF100 on older ruff,
RUF102 on newer) calls `TW201` an unknown code and `--fix` deletes the comment, which
un-suppresses the finding in `toolwire check`. With it, the comment survives.
"""

from __future__ import annotations

from pathlib import Path

from adoption_helpers import run, script, toolwire, write

LEAK = """\
from toolwire import ToolResult


def show(result: ToolResult) -> str:
    return str(result)  # noqa: TW201
"""
PYPROJECT = """\
[tool.ruff.lint]
external = ["TW"]

[tool.toolwire]
"""
NOQA_RULES = "RUF100,RUF102"


def test_noqa_tw_survives_ruff_fix_with_external(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": PYPROJECT, "leak.py": LEAK})
    ruff = run(
        [
            script("ruff"),
            "check",
            "--config",
            "pyproject.toml",
            "--fix",
            "--select",
            NOQA_RULES,
            "leak.py",
        ],
        root,
    )
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    assert (root / "leak.py").read_text(encoding="utf-8") == LEAK
    # The same on the command line, as docs/integrations.md shows it.
    ruff = run(
        [
            script("ruff"),
            "check",
            "--isolated",
            "--config",
            'lint.external=["TW"]',
            "--fix",
            "--select",
            NOQA_RULES,
            "leak.py",
        ],
        root,
    )
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    assert (root / "leak.py").read_text(encoding="utf-8") == LEAK
    # ...and toolwire still honours the comment.
    check = toolwire("check", "leak.py", cwd=root)
    assert check.returncode == 0, check.stdout + check.stderr


def test_without_external_ruff_strips_the_code_and_the_leak_reappears(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": "[tool.toolwire]\n", "leak.py": LEAK})
    report = run([script("ruff"), "check", "--isolated", "--select", NOQA_RULES, "leak.py"], root)
    assert report.returncode == 1
    assert "TW201" in report.stdout
    assert "RUF100" in report.stdout or "RUF102" in report.stdout
    fixed = run(
        [script("ruff"), "check", "--isolated", "--fix", "--select", NOQA_RULES, "leak.py"], root
    )
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "noqa" not in (root / "leak.py").read_text(encoding="utf-8")
    check = toolwire("check", "leak.py", cwd=root)
    assert check.returncode == 1
    assert "leak.py:5:12: TW201" in check.stdout
