"""What the toolwire mypy plugin costs: mypy with and without it, cold cache, interleaved.

    python bench/mypy_plugin.py [--repeat 5] [--no-langchain]

Targets: this repository's `src/` plus `tests/fixtures` (sinks configured from the
fixtures' `[tool.toolwire]`), and langchain-core when `pip download` can fetch it into
~/.cache/toolwire-bench (never into the repository). Each run gets a fresh --cache-dir.
Prints the median wall time of each and the ratio (the target is at most 1.05x), and the
ratio of CPU time, which a busy machine disturbs less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("TOOLWIRE_BENCH_CACHE", Path.home() / ".cache" / "toolwire-bench"))
TARGET_RATIO = 1.05


@dataclass(frozen=True)
class Target:
    name: str
    cwd: Path
    paths: list[str]
    mypy_path: list[str]
    extra: list[str]


def _config(directory: Path, target: Target, plugin: bool) -> Path:
    lines = ["[mypy]", f"mypy_path = {os.pathsep.join(target.mypy_path)}"]
    if plugin:
        lines += [
            "plugins = toolwire.mypy",
            f"x_toolwire_config = {REPO / 'tests' / 'fixtures' / 'pyproject.toml'}",
        ]
    path = directory / ("with.ini" if plugin else "without.ini")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(target: Target, config: Path, scratch: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one cold mypy run."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=scratch))
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(config),
        "--cache-dir",
        str(cache),
        "--no-error-summary",
        *target.extra,
        *target.paths,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=target.cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shutil.rmtree(cache, ignore_errors=True)
    if done.returncode not in (0, 1) or "internal error" in done.stdout + done.stderr:
        raise SystemExit(f"mypy failed on {target.name}:\n{done.stdout}\n{done.stderr}")
    return elapsed, cpu


def _langchain() -> Target | None:
    """langchain-core's sources, downloaded once into the bench cache."""
    unpacked = CACHE / "langchain_core"
    if not (unpacked / "langchain_core").is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        wheels = CACHE / "wheels"
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "-d", str(wheels), "langchain-core"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        found = sorted(wheels.glob("langchain_core-*.whl")) if wheels.is_dir() else []
        if done.returncode != 0 or not found:
            print(f"langchain-core: not available ({done.stderr.strip()[-200:]})", file=sys.stderr)
            return None
        with zipfile.ZipFile(found[-1]) as wheel:
            wheel.extractall(unpacked)
    return Target(
        "langchain-core",
        unpacked,
        ["langchain_core"],
        [str(unpacked)],
        ["--ignore-missing-imports", "--follow-imports=silent"],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-langchain", action="store_true")
    options = parser.parse_args()
    targets = [
        Target(
            "toolwire src + tests/fixtures",
            REPO,
            ["src/toolwire", "tests/fixtures/app"],
            [str(REPO / "src"), str(REPO / "tests" / "fixtures")],
            [],
        )
    ]
    if not options.no_langchain:
        langchain = _langchain()
        if langchain is not None:
            targets.append(langchain)
    rows: list[tuple[str, float, float, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-") as tmp:
        scratch = Path(tmp)
        for target in targets:
            configs = {plugin: _config(scratch, target, plugin) for plugin in (False, True)}
            _run(target, configs[False], scratch)  # warm the OS file cache, not mypy's
            runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
            for _ in range(options.repeat):
                for plugin in (False, True):  # interleaved, so drift hits both alike
                    runs[plugin].append(_run(target, configs[plugin], scratch))
            wall = [statistics.median(t[0] for t in runs[p]) for p in (False, True)]
            cpu = [statistics.median(t[1] for t in runs[p]) for p in (False, True)]
            rows.append((target.name, wall[0], wall[1], cpu[0], cpu[1]))
    print(f"mypy {_mypy_version()}, cold cache, median of {options.repeat} interleaved runs")
    print(f"{'target':30} {'wall without':>12} {'with':>8} {'ratio':>7}   {'cpu ratio':>9}")
    for name, wall_without, wall_with, cpu_without, cpu_with in rows:
        ratio = wall_with / wall_without
        verdict = "ok" if ratio <= TARGET_RATIO else f"over {TARGET_RATIO:.2f}x"
        print(
            f"{name:30} {wall_without:11.2f}s {wall_with:7.2f}s {ratio:6.3f}x"
            f"   {cpu_with / cpu_without:8.3f}x  {verdict}"
        )
    return 0


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


if __name__ == "__main__":
    sys.exit(main())
