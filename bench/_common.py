"""Shared by the bench scripts: where things live, corpora, and timing one child process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("TOOLWIRE_BENCH_CACHE", Path.home() / ".cache" / "toolwire-bench"))
VENVS = CACHE / "venvs"
PYTHON = sys.executable  # the interpreter with toolwire installed (bench/run re-uses it)
BIN = Path(PYTHON).parent
FIXTURE_CONFIG = ROOT / "tests" / "fixtures" / "pyproject.toml"
BENCH_CONFIG = ROOT / "bench" / "toolwire.toml"

# Pinned third-party corpora: (pip requirement, wheel glob, top-level package directory).
WHEELS = {
    "django": ("django==5.2.19", "django-5.2.19-*.whl", "django"),
    "langchain-community": (
        "langchain-community==0.4.2",
        "langchain_community-0.4.2-*.whl",
        "langchain_community",
    ),
    # Big pure-python wheels: with the three above and the stdlib, the >= 10 000 files of
    # the migrate -j2 / -j1 row.
    "sympy": ("sympy==1.13.3", "sympy-1.13.3-*.whl", "sympy"),
    "transformers": ("transformers==4.57.1", "transformers-4.57.1-*.whl", "transformers"),
    "google-cloud-aiplatform": (
        "google-cloud-aiplatform==1.71.1",
        "google_cloud_aiplatform-1.71.1-*.whl",
        "google",
    ),
    "kubernetes": ("kubernetes==31.0.0", "kubernetes-31.0.0-*.whl", "kubernetes"),
    "ansible-core": ("ansible-core==2.17.7", "ansible_core-2.17.7-*.whl", "ansible"),
}


@dataclass(frozen=True, slots=True)
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child and the children it waited for
    rss_mb: float  # peak resident set of the child (and the children it waited for)
    returncode: int
    stdout: str
    stderr: str


def timed(
    cmd: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> Run:
    """Run one child; wall time and its own peak RSS from wait4 (not the whole-bench max)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
        if stdin is not None and proc.stdin is not None:
            proc.stdin.write(stdin.encode())
            proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            wall,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024,
            proc.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def stdlib_files() -> list[Path]:
    """Every .py file of this interpreter's stdlib, without site-packages."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts and p.is_file())


def corpus_dir(name: str, log: bool = True) -> Path:
    """The pinned wheel, downloaded with pip and unpacked under the cache (never committed)."""
    requirement, pattern, package = WHEELS[name]
    target = CACHE / f"{name}-src"
    if (target / package).is_dir():
        return target / package
    CACHE.mkdir(parents=True, exist_ok=True)
    wheels = sorted(CACHE.glob(pattern))
    if not wheels:
        if log:
            print(f"bench: pip download --no-deps {requirement}", file=sys.stderr)
        subprocess.run(
            [PYTHON, "-m", "pip", "download", "-q", "--no-deps", requirement, "-d", str(CACHE)],
            check=True,
        )
        wheels = sorted(CACHE.glob(pattern))
    with zipfile.ZipFile(wheels[-1]) as archive:
        archive.extractall(target)
    return target / package


def python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


def venv(name: str, requirements: Sequence[str]) -> Path | str:
    """A venv under the cache with `requirements`, made once; its bin/ or why it failed."""
    home = VENVS / name
    marker = home / ".toolwire-bench-ok"
    if marker.exists():
        return home / "bin"
    shutil.rmtree(home, ignore_errors=True)
    VENVS.mkdir(parents=True, exist_ok=True)
    made = subprocess.run(
        [PYTHON, "-m", "venv", str(home)], capture_output=True, text=True, check=False
    )
    if made.returncode != 0:
        return f"venv failed: {made.stderr.strip().splitlines()[-1:]}"
    pip = subprocess.run(
        [str(home / "bin" / "python"), "-m", "pip", "install", "-q", *requirements],
        capture_output=True,
        text=True,
        check=False,
    )
    if pip.returncode != 0:
        last = [line for line in pip.stderr.splitlines() if line.startswith("ERROR")][-1:]
        return f"pip install {' '.join(requirements)} failed: {' '.join(last) or pip.returncode}"
    marker.touch()
    return home / "bin"


def flake8_bare() -> Path | str:
    """The bin/ of a venv with the same flake8, pyflakes, pycodestyle and mccabe as this
    one and without toolwire (so without its plugin), or why it failed."""
    versions = [
        f"{d}=={installed_version(d)}" for d in ("flake8", "pyflakes", "pycodestyle", "mccabe")
    ]
    return venv("flake8-bare", versions)


def installed_version(distribution: str) -> str:
    from importlib.metadata import version

    return version(distribution)


# What `worst_case` appends to every file: with it, the pre-filter lets every file through
# and the whole value flow runs on each one.
TOOL_CODE = b"""

from toolwire import ToolResult


class _BenchTool:
    def execute(self, arguments: dict[str, str]) -> ToolResult:
        return ToolResult.text("ok")
"""


def worst_case(files: Sequence[Path], root: Path, dest: Path) -> list[Path]:
    """Copies of `files` (relative to `root`) under `dest`, each with tool code appended."""
    out = []
    for path in files:
        target = dest / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        target.write_bytes(data + (b"" if data.endswith(b"\n") else b"\n") + TOOL_CODE)
        out.append(target)
    return out
