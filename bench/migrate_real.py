"""`toolwire migrate` on real code nobody here wrote, and how fast it is against its floors.

A plain script, not a test:

    python bench/migrate_real.py [--skip-download]

It downloads two wheels (no dependencies) into ~/.cache/toolwire-bench, migrates a
scratch copy of each, and checks: every output parses; a second run changes nothing;
no file without a target method changes; each `-> str` tool method (counted here with
`ast`, independently of the codemod) is migrated or reported as skipped. Then it times
`migrate --check` against `ast.parse` (the CPython stdlib: no tools, so the text
pre-filter is what is measured) and against a bare LibCST parse + codegen of the
candidate files, and `--jobs 2` against `--jobs 1`. Every timing is a whole process,
floors included, best of three.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

CACHE = Path.home() / ".cache" / "toolwire-bench"
PACKAGES = {
    "langchain-community": ("langchain_community", "0.4.2", ["_run", "_arun", "run"], 220),
    "crewai-tools": ("crewai_tools", "1.15.30", ["_run", "_arun"], 88),
}
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
REPEAT = 3


def fetch(name: str, version: str) -> Path:
    """The unpacked wheel, downloaded once with pip into the cache."""
    unpacked = CACHE / f"{name}-{version}"
    if unpacked.is_dir():
        return unpacked
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            str(CACHE),
            f"{name}=={version}",
        ],
        check=True,
    )
    stem = name.replace("-", "_")
    wheel = next(CACHE.glob(f"{stem}-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    return unpacked


def str_methods(root: Path, methods: list[str]) -> set[tuple[str, int]]:
    """(path, line) of every method in `methods` of a class, annotated exactly `-> str`."""
    found = set()
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_bytes())
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                returns = item.returns
                plain = isinstance(returns, ast.Name) and returns.id == "str"
                dotted = (
                    isinstance(returns, ast.Attribute)
                    and returns.attr == "str"
                    and isinstance(returns.value, ast.Name)
                    and returns.value.id == "builtins"
                )
                if item.name in methods and (plain or dotted):
                    found.add((str(path.relative_to(root)), item.lineno))
    return found


def has_target(path: Path, methods: list[str]) -> bool:
    tree = ast.parse(path.read_bytes())
    return any(
        isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name in methods
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for item in node.body
    )


def migrate(root: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    out = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", *args, "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    return out.returncode, json.loads(out.stdout), out.stderr


def real_code(name: str, package: str, version: str, methods: list[str], expected: int) -> Path:
    source = fetch(name, version) / package
    scratch = Path(tempfile.mkdtemp(prefix=f"toolwire-{package}-")) / package
    shutil.copytree(source, scratch)
    pristine = {p: p.read_bytes() for p in scratch.rglob("*.py")}
    targets = str_methods(scratch, methods)
    flags = [f"--method={m}" for m in methods]
    code, summary, stderr = migrate(scratch, *flags)
    errors = summary["errors"]
    assert code in (0, 2), stderr
    for path in scratch.rglob("*.py"):
        ast.parse(path.read_bytes())  # every output parses
    changed = {scratch / p for p in summary["changed"]}
    for path, data in pristine.items():
        if path.read_bytes() != data:
            assert path in changed, f"{path} changed but is not reported"
            assert has_target(path, methods), f"{path} has no target method, yet changed"
    migrated = {(e["path"], e["line"]) for e in summary["migrated"]}
    skipped = {(e["path"], e["line"]): e["reason"] for e in summary["skipped"]}
    unaccounted = targets - migrated - set(skipped)
    assert not unaccounted, f"neither migrated nor skipped: {sorted(unaccounted)[:10]}"
    str_skips = {k: v for k, v in skipped.items() if k in targets}
    second, again, _ = migrate(scratch, "--check", *flags)
    assert again["files_changed"] == 0, again["changed"]
    print(f"\n{name}=={version}: {len(pristine)} files, methods {', '.join(methods)}")
    print(f"  `-> str` tool methods (ast): {len(targets)} (expected {expected})")
    print(
        f"  migrated: {len(migrated)}; skipped of those: {len(str_skips)}; "
        f"skipped for other annotations: {len(skipped) - len(str_skips)}"
    )
    print(
        f"  returns wrapped: {summary['returns_text']} text, {summary['returns_error']} error; "
        f"files changed: {summary['files_changed']}; sink payloads moved: {summary['sinks_moved']}"
    )
    reasons: dict[str, int] = {}
    for reason in str_skips.values():
        key = reason.split(":")[0] if "tool method not defined" in reason else reason
        reasons[key] = reasons.get(key, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda r: -r[1]):
        print(f"    skipped {count:3}: {reason}")
    print(f"  errors: {len(errors)}; second run changes: {again['files_changed']} (exit {second})")
    assert len(migrated) + len(str_skips) == len(targets)
    return source


def best(command: list[str], cwd: Path | None = None) -> float:
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def floor(kind: str, files: list[Path]) -> float:
    listing = Path(tempfile.mkstemp(suffix=".txt")[1])
    listing.write_text("\n".join(map(str, files)), encoding="utf-8")
    body = {
        "ast": "import ast\nfor p in paths:\n    ast.parse(open(p,'rb').read())",
        "libcst": (
            "import libcst\nfor p in paths:\n    libcst.parse_module(open(p,'rb').read()).code"
        ),
    }[kind]
    script = f"paths=open({str(listing)!r}).read().split('\\n')\n{body}\n"
    try:
        return best([sys.executable, "-c", script])
    finally:
        listing.unlink()


def discovered(root: Path) -> list[Path]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from toolwire.lint.files import discover

    found, _ = discover([str(root)])
    return [p for p in found if p.suffix == ".py"]


def parses(path: Path) -> bool:
    try:
        ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return False
    return True


def candidates(root: Path, methods: list[str]) -> list[Path]:
    import re

    pattern = re.compile(rf"\bdef\s+(?:{'|'.join(methods)})\b".encode())
    return [p for p in discovered(root) if pattern.search(b := p.read_bytes()) and b"str" in b]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    sources = {}
    for name, (package, version, methods, expected) in PACKAGES.items():
        sources[name] = real_code(name, package, version, methods, expected)

    rows: list[tuple[str, float, str, float, float | None]] = []
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    # The stdlib proper: its directory without site-packages.
    tops = sorted(str(p) for p in stdlib.iterdir() if p.name != "site-packages")
    std_files = [p for top in tops for p in discovered(Path(top)) if parses(p)]
    tool = best([TOOLWIRE, "migrate", "--check", *tops])
    base = floor("ast", std_files)
    rows.append((f"stdlib migrate --check ({len(std_files)} files)", tool, "ast.parse", base, 0.5))

    package, _, methods, _ = PACKAGES["langchain-community"]
    lc = sources["langchain-community"]
    flags = [f"--method={m}" for m in methods]
    chosen = candidates(lc, methods)
    tool = best([TOOLWIRE, "migrate", "--check", *flags, str(lc)])
    base = floor("libcst", chosen)
    rows.append(
        (
            f"langchain migrate --check ({len(chosen)} candidates)",
            tool,
            "libcst parse+code",
            base,
            1.5,
        )
    )
    alone = best([TOOLWIRE, "migrate", "--check", "--codemod", "tool-returns", *flags, str(lc)])
    rows.append(("  of which --codemod tool-returns alone", alone, "libcst parse+code", base, 1.5))
    parallel = best([TOOLWIRE, "migrate", "--check", "--jobs", "2", *flags, str(lc)])
    rows.append(("langchain --jobs 2", parallel, "--jobs 1", tool, None))

    print(f"\n{'measurement':48} {'toolwire':>9} {'floor':>18} {'ratio':>7} {'target':>7}")
    for label, mine, floor_name, floor_time, target in rows:
        ratio = mine / floor_time
        goal = f"<={target}" if target else ""
        verdict = "" if target is None else ("ok" if ratio <= target else "MISS")
        cells = f"{mine:8.2f}s {floor_name:>17} {floor_time:5.2f}s {ratio:6.2f}x"
        print(f"{label:48} {cells} {goal:>7} {verdict}")
    print(f"\n(best of {REPEAT}; cpu count {os.cpu_count()})")


if __name__ == "__main__":
    main()
