"""kill -9 `toolwire migrate --jobs 2` at random moments; every file must survive whole.

    python bench/kill_migrate.py [--trials 20] [--seed 15] [--cache DIR]

Downloads langchain-community 0.4.2 once (`pip download --no-deps`) into the cache, runs
one clean full migration for the expected output, then per trial: copy the tree, start
the migration, SIGKILL the parent after a random delay (or once a random number of files
is written), and check that

- every file is byte-identical to the original or to the clean migration's output,
- no file appears or disappears (no stray temp file),
- the workers are gone within a few seconds (they die with the parent),
- nothing is written after the kill (the tree is the same 3 s later).

Prints one line per trial and the totals; exits 1 if any trial broke a rule.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

PACKAGE = "langchain-community==0.4.2"
METHODS = ("--method", "_run", "--method", "_arun", "--method", "run")
CONFIG = '[tool.toolwire]\npresets = ["openai", "anthropic"]\n'
TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))


def fetch(cache: Path) -> Path:
    tree = cache / "tree"
    if (tree / "langchain_community").is_dir():
        return tree
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", PACKAGE, "-d", str(cache)],
        check=True,
    )
    wheel = next(cache.glob("langchain_community-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.startswith("langchain_community/")]
        archive.extractall(tree, members)
    (tree / "pyproject.toml").write_text(CONFIG)
    return tree


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def command() -> list[str]:
    return [TOOLWIRE, "migrate", "--jobs", "2", *METHODS, "."]


def written(root: Path, since: float) -> int:
    wall = time.time() - (time.monotonic() - since)
    return sum(1 for p in root.rglob("*.py") if p.stat().st_mtime >= wall)


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache/toolwire-kill-bench")
    args = parser.parse_args()
    source = fetch(args.cache)
    original = snapshot(source)
    with tempfile.TemporaryDirectory() as work:
        ref = Path(work) / "ref"
        shutil.copytree(source, ref)
        start = time.monotonic()
        done = subprocess.run(command(), cwd=ref, capture_output=True)
        duration = time.monotonic() - start
        expected = snapshot(ref)
        migrated = sum(1 for k in original if expected[k] != original[k])
        print(f"clean run: rc={done.returncode}, {duration:.1f} s, {migrated} files migrated")
        if set(expected) != set(original):
            print("the clean run itself added or removed files", file=sys.stderr)
            return 1
        rng = random.Random(args.seed)
        totals = {"untouched": 0, "migrated": 0, "bad": 0, "stray": 0, "orphans": 0, "late": 0}
        for trial in range(args.trials):
            tree = Path(work) / f"t{trial}"
            shutil.copytree(source, tree)
            # Half the kills at a random time, half once a random number of files is written
            # (the write phase is short next to the analysis: a time alone rarely lands in it).
            goal = rng.randint(1, migrated) if trial % 2 else 0
            delay = rng.uniform(0.1, 1.0) * duration
            began = time.monotonic()
            proc = subprocess.Popen(
                command(), cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            if goal:
                while written(tree, began) < goal and proc.poll() is None:
                    time.sleep(0.02)
            else:
                time.sleep(delay)
            workers = children(proc.pid)
            delay = time.monotonic() - began
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            after = snapshot(tree)
            time.sleep(3)
            later = snapshot(tree)
            orphans = [w for w in workers if alive(w)]
            for w in orphans:
                os.kill(w, signal.SIGKILL)
            same = sum(1 for k in original if after.get(k) == original[k])
            full = sum(1 for k in original if after.get(k) == expected[k] != original[k])
            bad = [k for k in original if after.get(k) not in (original[k], expected[k])]
            stray = sorted(set(after) ^ set(original))
            late = [k for k in set(after) | set(later) if after.get(k) != later.get(k)]
            totals["untouched"] += same
            totals["migrated"] += full
            totals["bad"] += len(bad)
            totals["stray"] += len(stray)
            totals["orphans"] += len(orphans)
            totals["late"] += len(late)
            print(
                f"trial {trial:2}: kill at {delay:5.2f} s: {full:4} migrated, {same:4} untouched, "
                f"{len(bad)} damaged, {len(stray)} stray, {len(workers)} workers / "
                f"{len(orphans)} alive after, {len(late)} written after the kill"
                + (f"  {bad[:3]} {stray[:3]}" if bad or stray else "")
            )
            shutil.rmtree(tree)
        print("totals:", ", ".join(f"{k} {v}" for k, v in totals.items()))
        return 1 if totals["bad"] or totals["stray"] or totals["orphans"] or totals["late"] else 0


if __name__ == "__main__":
    sys.exit(main())
