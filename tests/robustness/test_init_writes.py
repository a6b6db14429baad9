"""`toolwire init` writes pyproject.toml through `toolwire.lint.writes`, like migrate."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire.lint.writes import create_file

TOOL = "class T:\n    def execute(self) -> str:\n        return 'x'\n"


def init(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire.lint.cli", "init", str(directory)],
        capture_output=True,
        text=True,
    )


def test_a_new_pyproject_is_whole_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(TOOL)
    run = init(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "[tool.toolwire]" in (tmp_path / "pyproject.toml").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml", "tools.py"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "pyproject.toml").stat().st_mode) == 0o666 & ~umask


def test_an_existing_pyproject_keeps_its_mode_and_its_hard_link(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(TOOL)
    target = tmp_path / "pyproject.toml"
    target.write_text('[project]\nname = "x"\n')
    target.chmod(0o640)
    os.link(target, tmp_path / "linked.toml")
    run = init(tmp_path)
    assert run.returncode == 0, run.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.stat().st_nlink == 2
    assert "[tool.toolwire]" in (tmp_path / "linked.toml").read_text()


def test_create_file_never_clobbers(tmp_path: Path) -> None:
    target = tmp_path / "pyproject.toml"
    target.write_text("mine\n")
    with pytest.raises(FileExistsError):
        create_file(target, b"theirs\n")
    assert target.read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]
