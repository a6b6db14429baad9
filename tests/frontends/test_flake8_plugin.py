"""The flake8 plugin, run through the real `python -m flake8` on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from frontend_helpers import (
    LEAK,
    LEAK_EXPECTED,
    assert_no_traceback,
    line_codes,
    run_flake8,
    text_findings,
    write,
)

from toolwire import __version__


def test_version_lists_toolwire(tmp_path: Path) -> None:
    result = run_flake8(["--version"], cwd=tmp_path)
    assert f"toolwire: {__version__}" in result.stdout


def test_findings_on_a_real_file(project: Path) -> None:
    result = run_flake8(["--select", "TW", "leak.py", "clean.py"], cwd=project)
    assert_no_traceback(result)
    found = text_findings(result.stdout)
    assert line_codes(found, "leak.py") == LEAK_EXPECTED
    assert line_codes(found, "clean.py") == []
    assert result.returncode == 1


def test_columns_match_toolwire_check(project: Path) -> None:
    from frontend_helpers import run_toolwire

    flake8 = text_findings(run_flake8(["--select", "TW", "leak.py"], cwd=project).stdout)
    check = text_findings(run_toolwire(["check", "leak.py"], cwd=project).stdout)
    assert flake8
    assert flake8 == check


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_and_a_form_feed_line_agree_with_toolwire_check(
    project: Path, newline: str
) -> None:
    from frontend_helpers import run_toolwire

    source = LEAK.replace("\n\n\ndef message", "\n\x0c\n\ndef message")
    (project / "paged.py").write_bytes(source.replace("\n", newline).encode())
    flake8 = text_findings(run_flake8(["--select", "TW", "paged.py"], cwd=project).stdout)
    check = text_findings(run_toolwire(["check", "paged.py"], cwd=project).stdout)
    assert line_codes(flake8, "paged.py") == LEAK_EXPECTED
    assert flake8 == check


def test_noqa(project: Path) -> None:
    write(
        project,
        {
            "tw_noqa.py": LEAK.replace("str(result)", "str(result)  # noqa: TW201"),
            "other_noqa.py": LEAK.replace("str(result)", "str(result)  # noqa: E501"),
        },
    )
    result = run_flake8(["--select", "TW", "tw_noqa.py", "other_noqa.py"], cwd=project)
    found = text_findings(result.stdout)
    assert line_codes(found, "tw_noqa.py") == [c for c in LEAK_EXPECTED if c[1] != "TW201"]
    assert line_codes(found, "other_noqa.py") == LEAK_EXPECTED


def test_bad_config_is_one_finding_not_a_crash(tmp_path: Path) -> None:
    root = write(tmp_path, {"pyproject.toml": "[tool.toolwire]\nbogus = 1\n", "m.py": LEAK})
    result = run_flake8(["--select", "TW", "m.py"], cwd=root)
    assert_no_traceback(result)
    found = text_findings(result.stdout)
    assert found == [("m.py", 1, 1, "TW000")]
    assert "bogus" in result.stdout
    assert str(root / "pyproject.toml") in result.stdout


def test_toolwire_config_option(tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "pyproject.toml": "[tool.toolwire]\nbogus = 1\n",
            "m.py": LEAK,
            "good/toolwire.toml": '[toolwire]\npresets = ["openai"]\nselect = ["TW3"]\n',
        },
    )
    result = run_flake8(
        ["--select", "TW", "--toolwire-config", "good/toolwire.toml", "m.py"], cwd=root
    )
    assert_no_traceback(result)
    assert line_codes(text_findings(result.stdout), "m.py") == [(9, "TW301")]
