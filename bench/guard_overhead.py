"""The guard's overhead: the example app's test suite with and without `--toolwire-guard`.

    python bench/guard_overhead.py [--repeat N]

Prints the best wall time of each and the ratio (the target is at most 1.10).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
APP = REPO / "examples" / "agent"


def best(options: list[str], repeat: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=APP, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    off = best(["--no-toolwire-guard"], repeat)
    on = best(["--toolwire-guard"], repeat)
    print("| example app tests | guard off | guard on | ratio |")
    print("|---|---|---|---|")
    print(f"| {APP.name} | {off:.2f} s | {on:.2f} s | {on / off:.2f}x |")


if __name__ == "__main__":
    main()
