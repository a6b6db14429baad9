"""Growth rows: the syntax layer's CPU time on generated modules of growing size, in process.

    python bench/growth.py

Two shapes, each run through `engine.check_source` (parse + facts + flow + checks):
loops nested 2..30 deep around a result flowing to a sink, and one function of 1k..16k
statements (a mix of `if`s and `for`s that each bind a name). Each row is the least CPU time
of several runs, so start-up and neighbours do not flatter or spoil the ratio; the collector
is tuned as `toolwire check` tunes it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from toolwire.lint.config import load_config
from toolwire.lint.engine import batch_gc, check_source

CONFIG = load_config(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pyproject.toml")
HEAD = "from toolwire import ToolResult\nfrom app.chat import ChatMessage\n\n"


def nested_loops(depth: int) -> str:
    lines = [HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:"]
    for level in range(depth):
        pad = "    " * (level + 1)
        lines.append(f"{pad}for x{level} in xs:" if level % 2 else f"{pad}while xs:")
    pad = "    " * (depth + 1)
    lines.append(f"{pad}y = r\n{pad}ChatMessage.tool_result('id', content=y)")
    return "\n".join(lines) + "\n"


def long_function(statements: int) -> str:
    body = []
    for i in range(statements // 2):
        if i % 2:
            body.append(f"    if r:\n        v{i} = r\n")
        else:
            body.append(f"    for w{i} in xs:\n        v{i} = w{i}\n")
    return HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:\n" + "".join(body)


def cpu(source: str, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        check_source(source, "generated.py", CONFIG)
        best = min(best, time.process_time() - start)
    return best


def rows(name: str, make: Callable[[int], str], sizes: list[int]) -> list[tuple[str, float]]:
    return [(f"{name} {size}", cpu(make(size))) for size in sizes]


def table() -> tuple[list[str], dict[str, float]]:
    lines = ["| shape | size | CPU (least of 5) | per unit of size |", "|---|---|---|---|"]
    times: dict[str, float] = {}
    for name, make, sizes in (
        ("loop depth", nested_loops, [2, 10, 20, 30]),
        ("statements in one function", long_function, [1000, 2000, 4000, 8000, 16000]),
    ):
        for size in sizes:
            seconds = cpu(make(size))
            times[f"{name} {size}"] = seconds
            per = seconds / size * 1e6
            lines.append(f"| {name} | {size} | {seconds * 1000:.1f} ms | {per:.1f} µs |")
    return lines, times


def main() -> int:
    batch_gc()  # as `toolwire check` runs
    lines, times = table()
    depth = times["loop depth 30"] / times["loop depth 10"]
    size = times["statements in one function 16000"] / times["statements in one function 1000"]
    lines += [
        "",
        f"loop depth 30 / 10: {depth:.2f}x (target < 3x: {'PASS' if depth < 3 else 'LOSS'}); "
        f"16k / 1k statements: {size:.2f}x (target < 20x: {'PASS' if size < 20 else 'LOSS'})",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
