"""The whole toolwire story on a scratch copy of examples/agent (the README's main command).

    python3 -m venv .venv && .venv/bin/pip install . pytest && .venv/bin/python examples/demo.py

It runs the real `toolwire` console script installed next to this interpreter:

1. `toolwire migrate --diff`  shows what the codemod would change (writes nothing);
2. `toolwire migrate`         migrates, and lists what it skipped and why;
   `toolwire migrate --check` proves a second run has nothing left to do;
3. `toolwire check`           shows the leaks that remain for a person to fix;
4. the example's own tests    still pass on the migrated copy;
5. the manual step            (examples/table_artifact.py) moves the records tool's rows
                              into a TABLE artifact; tests and check run again.

Findings are expected in step 3, so `check` exiting 1 there is a success. The demo
exits 0 when every step behaved as expected, 1 otherwise, 2 when toolwire is missing.
The example's tests run under pytest, which the command above installs beside toolwire.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE / "agent"
FINDING = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TW\d{3}) ", re.M)
WIDTH = 78


@dataclass
class Step:
    title: str
    problems: list[str] = field(default_factory=list)

    def expect(self, condition: bool, problem: str) -> None:
        if not condition:
            self.problems.append(problem)


def header(number: str, title: str) -> None:
    print()
    print("=" * WIDTH)
    print(f" {number}. {title}" if number else f" {title}")
    print("=" * WIDTH)


def console_script(name: str) -> Path | None:
    """The script pip installed beside sys.executable (bin/ on POSIX, Scripts/ on Windows)."""
    folder = Path(sys.executable).parent
    for candidate in (folder / name, folder / f"{name}.exe", folder / "Scripts" / f"{name}.exe"):
        if candidate.is_file():
            return candidate
    return None


def run(
    args: Sequence[str], cwd: Path, shown: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    print(f"$ {shown}")
    done = subprocess.run(
        list(args),
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.stdout:
        print(done.stdout, end="" if done.stdout.endswith("\n") else "\n")
    if done.stderr:
        print(done.stderr, end="" if done.stderr.endswith("\n") else "\n")
    print(f"(exit {done.returncode})")
    return done


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def findings(output: str) -> list[tuple[str, int, str]]:
    return [(m["path"], int(m["line"]), m["code"]) for m in FINDING.finditer(output)]


def run_tests(copy: Path, step: Step) -> None:
    if importlib.util.find_spec("pytest") is None:
        step.expect(False, "pytest is not installed here: pip install pytest")
        return
    env = {"PYTHONPATH": os.pathsep.join([str(copy), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    done = run(args, copy, "python -m pytest -q", env)
    step.expect(done.returncode == 0, f"the example's tests failed (exit {done.returncode})")


def demo(toolwire: Path, copy: Path) -> list[Step]:
    steps: list[Step] = []
    tw = str(toolwire)

    header("1", "What the codemod would change: toolwire migrate --diff")
    step = Step("migrate --diff shows a diff and writes nothing")
    before = snapshot(copy)
    done = run([tw, "migrate", "--diff", "."], copy, "toolwire migrate --diff .")
    step.expect(done.returncode == 0, f"exit {done.returncode}, expected 0")
    step.expect("+++ " in done.stdout and "ToolResult.text(" in done.stdout, "no diff shown")
    step.expect(snapshot(copy) == before, "--diff changed files")
    steps.append(step)

    header("2", "Migrate, and review what was skipped: toolwire migrate")
    step = Step("migrate rewrites the tools and lists what it skipped, with reasons")
    done = run([tw, "migrate", "."], copy, "toolwire migrate .")
    output = done.stdout + done.stderr
    step.expect(done.returncode == 0, f"exit {done.returncode}, expected 0")
    step.expect(snapshot(copy) != before, "no file was changed")
    skipped = output[output.find("skipped") :] if "skipped" in output else ""
    step.expect(
        "MemoryTool.execute" in skipped, "MemoryTool (-> Optional[str]) not listed as skipped"
    )
    print()
    print("A second run must have nothing left to do (the codemod is idempotent):")
    again = run([tw, "migrate", "--check", "."], copy, "toolwire migrate --check .")
    step.expect(
        again.returncode == 0, f"a second run would still change files ({again.returncode})"
    )
    steps.append(step)

    header("3", "The leaks a person has to fix: toolwire check")
    step = Step("check reports the leaks the codemod cannot fix (exit 1 is expected)")
    done = run([tw, "check", "."], copy, "toolwire check .")
    remaining = findings(done.stdout)
    step.expect(done.returncode == 1, f"exit {done.returncode}, expected 1 (findings)")
    step.expect(bool(remaining), "no findings: the example's deliberate leaks were missed")
    # `Tool.execute` keeps `-> str` until MemoryTool (skipped) is migrated by hand: its TW101
    # is expected; any other is not.
    left = [f for f in remaining if f[2] == "TW000" or (f[2] == "TW101" and "base.py" not in f[0])]
    step.expect(not left, "TW000/TW101 left")
    if remaining:
        print()
        print(f"{len(remaining)} findings remain, each a decision for a person:")
        for path, line, code in remaining:
            print(f"  {code}  {path}:{line}")
        print("(the `# leak:` comments in examples/agent say why each one is wrong)")
    steps.append(step)

    header("4", "The example's own tests, on the migrated copy")
    step = Step("the example's tests pass after the migration")
    run_tests(copy, step)
    steps.append(step)

    header("5", "The manual step: the records tool's rows become a TABLE artifact")
    step = Step("after the manual step, tests pass and nothing new leaks")
    script = HERE / "table_artifact.py"
    done = run([sys.executable, str(script), "."], copy, "python examples/table_artifact.py .")
    step.expect(done.returncode == 0, f"the step did not apply (exit {done.returncode})")
    run_tests(copy, step)
    done = run([tw, "check", "."], copy, "toolwire check .")
    after = findings(done.stdout)
    step.expect(done.returncode == 1, f"check exit {done.returncode}, expected 1")
    step.expect(after == remaining, "the findings changed: the table artifact leaks somewhere")
    step.expect(not [f for f in after if "records" in f[0]], "a finding in the records tool")
    steps.append(step)
    return steps


def main() -> int:
    toolwire = console_script("toolwire")
    if toolwire is None:
        print(f"demo: no `toolwire` script next to {sys.executable}.", file=sys.stderr)
        print("demo: install it into this environment first: pip install .", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="toolwire-demo-") as scratch:
        copy = Path(scratch) / "agent"
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
        shutil.copytree(EXAMPLE, copy, ignore=ignore)
        print(f"toolwire demo: a scratch copy of examples/agent in {copy}")
        print(f"using {toolwire}")
        steps = demo(toolwire, copy)
    header("", "Summary")
    for number, step in enumerate(steps, 1):
        print(f"  {'ok  ' if not step.problems else 'FAIL'}  {number}. {step.title}")
        for problem in step.problems:
            print(f"          {problem}")
    failed = sum(bool(step.problems) for step in steps)
    print()
    print("every step behaved as expected" if not failed else f"{failed} step(s) misbehaved")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
