"""toolwire against fixit and semgrep on the same work: the labelled set and one corpus.

The labelled set is every `python flagged` / `python clean` example of rules/ that the
syntax layer claims (the mypy-only ones need types from other modules). A flagged
line (`# expect: TWnnn`) is a case; a tool catches it when it reports that code on that
line. Any report in a clean example is a false alarm. Examples of a rule with its own
`[config]` run under it for toolwire; the peers' rules are fixed to the fixture config.
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _common import (
    BENCH_CONFIG,
    CACHE,
    FIXTURE_CONFIG,
    PYTHON,
    ROOT,
    Run,
    flake8_bare,
    timed,
    venv,
)

PEERS = ROOT / "bench" / "peers"
SEMGREP_RULES = PEERS / "semgrep" / "toolwire.yaml"
FIXIT_RULES = "fixit_toolwire"
_CODE = re.compile(r"TW\d{3}")
# What each peer's rule set has no rule for, and why (shown in the table).
CANNOT = {
    "fixit": {
        "TW104": "needs the tool methods' return flow",
        "TW105": "not written (needs __str__ on subclasses)",
        "TW303": "needs the seam config and module names",
    },
    "semgrep": {
        "TW104": "needs the tool methods' return flow",
        "TW303": "needs the seam config and module names",
    },
}


@dataclass(frozen=True, slots=True)
class Case:
    file: str  # relative to the set's root
    kind: str  # flagged | clean
    rule: str
    expected: frozenset[tuple[int, str]]


@dataclass
class Score:
    tool: str
    caught: int = 0
    total: int = 0
    false_alarms: int = 0
    stray: int = 0  # reports on unexpected lines of flagged examples
    wall: float = 0.0
    by_rule: Counter[str] = field(default_factory=Counter)
    missed_by_rule: Counter[str] = field(default_factory=Counter)
    note: str = ""


def build_set(target: Path) -> list[Case]:
    """Write every example under `target`, one project per distinct rule config."""
    from toolwire.lint.catalog import catalog

    shutil.rmtree(target, ignore_errors=True)
    base = tomllib.loads(FIXTURE_CONFIG.read_text())["tool"]["toolwire"]
    app = FIXTURE_CONFIG.parent / "app"
    cases: list[Case] = []
    for code, rule in catalog().items():
        for index, example in enumerate(rule.examples):
            # The mypy-only examples need types from other modules: no single-file tool has them.
            if example.kind not in ("flagged", "clean") or "syntax" not in example.layers:
                continue
            own = bool(rule.config or rule.example_module)
            # A rule with its own config or module name gets one project per example.
            project = target / (f"{code}_{index}" if own else "shared")
            if not project.exists():
                shutil.copytree(app, project / "app")
                table = {**base, **rule.config}
                (project / "pyproject.toml").write_text(_toml({"tool": {"toolwire": table}}))
            if rule.example_module:
                path = project / Path(*rule.example_module.split(".")).with_suffix(".py")
            else:
                path = project / "examples" / f"{code}_{example.kind}_{index}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(example.code)
            expected = frozenset(example.expected())
            cases.append(Case(str(path.relative_to(target)), example.kind, code, expected))
    return cases


def _toml(data: dict[str, dict[str, dict[str, object]]]) -> str:
    lines = ["[tool.toolwire]"]
    for key, value in data["tool"]["toolwire"].items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


# -- running the tools ---------------------------------------------------------------------

Reports = dict[str, set[tuple[int, str]]]


def _parse_lines(text: str, root: Path, pattern: re.Pattern[str]) -> Reports:
    found: Reports = {}
    for line in text.splitlines():
        match = pattern.match(line)
        if match:
            code = _CODE.search(match["rest"])
            if code:
                path = Path(match["path"])
                if path.is_absolute():
                    path = path.relative_to(root)
                found.setdefault(str(path), set()).add((int(match["line"]), code.group()))
    return found


_TEXT = re.compile(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+):\d+:\s*(?P<rest>.*)$")
_FIXIT = re.compile(r"^(?P<path>\S+\.py)@(?P<line>\d+):\d+ (?P<rest>.*)$")


def run_toolwire(
    root: Path, paths: Sequence[str], config: Path | None = None
) -> tuple[Run, Reports]:
    cmd = [PYTHON, "-m", "toolwire.lint.cli", "check", "--jobs", "1", "--no-cache", "--exit-zero"]
    if config is not None:
        cmd += ["--config", str(config)]
    run = timed([*cmd, *paths], cwd=root)
    return run, _parse_lines(run.stdout, root, _TEXT)


def fixit_bin() -> Path | str:
    return venv("fixit", ["fixit==2.2.1"])


def semgrep_bin() -> Path | str:
    return venv("semgrep", ["semgrep==1.185.0"])


def run_fixit(root: Path, paths: Sequence[str]) -> tuple[Run, Reports] | str:
    bin_dir = fixit_bin()
    if isinstance(bin_dir, str):
        return bin_dir
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(PEERS), "HOME": str(Path.home())}
    run = timed([str(bin_dir / "fixit"), "--rules", FIXIT_RULES, "lint", *paths], cwd=root, env=env)
    if "Traceback" in run.stderr and not run.stdout:
        return f"fixit crashed: {run.stderr.strip().splitlines()[-1]}"
    return run, _parse_lines(run.stdout, root, _FIXIT)


def run_semgrep(root: Path, paths: Sequence[str]) -> tuple[Run, Reports] | str:
    bin_dir = semgrep_bin()
    if isinstance(bin_dir, str):
        return bin_dir
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "HOME": str(CACHE / "semgrep-home"),
        "SEMGREP_SEND_METRICS": "off",
    }
    cmd = [
        str(bin_dir / "semgrep"),
        "scan",
        "--config",
        str(SEMGREP_RULES),
        "--json",
        "--metrics=off",
        "--disable-version-check",
        "--no-git-ignore",
        "--jobs",
        "1",
        "--timeout",
        "0",
        *paths,
    ]
    run = timed(cmd, cwd=root, env=env)
    try:
        data = json.loads(run.stdout)
    except json.JSONDecodeError:
        return f"semgrep failed (exit {run.returncode}): {run.stderr.strip()[-300:]}"
    found: Reports = {}
    for result in data.get("results", []):
        code = _CODE.search(result["check_id"])
        if code:
            path = Path(result["path"])
            path = path.relative_to(root) if path.is_absolute() else path
            found.setdefault(str(path), set()).add((result["start"]["line"], code.group()))
    return run, found


def score(tool: str, cases: Iterable[Case], reports: Reports, wall: float) -> Score:
    result = Score(tool, wall=wall)
    for case in cases:
        got = reports.get(case.file, set())
        if case.kind == "clean":
            result.false_alarms += len(got)
            continue
        result.total += len(case.expected)
        for expected in case.expected:
            if expected in got:
                result.caught += 1
                result.by_rule[expected[1]] += 1
            else:
                result.missed_by_rule[expected[1]] += 1
        result.stray += len({(line, c) for line, c in got} - case.expected)
    return result


def labelled(work: Path) -> list[Score | str]:
    """Scores of toolwire, fixit and semgrep on the labelled set (a str where a tool failed)."""
    cases = build_set(work)
    paths = sorted({c.file for c in cases})
    out: list[Score | str] = []
    run, reports = run_toolwire(work, paths)
    out.append(score("toolwire check", cases, reports, run.wall))
    for name, runner in (("fixit", run_fixit), ("semgrep", run_semgrep)):
        got = runner(work, paths)
        if isinstance(got, str):
            out.append(f"{name}: n/a ({got})")
        else:
            out.append(score(name, cases, got[1], got[0].wall))
    return out


@dataclass(frozen=True, slots=True)
class CorpusRun:
    tool: str
    wall: float
    cpu: float
    rss_mb: float
    findings: int
    note: str = ""


def corpus(root: Path, files: Sequence[Path]) -> list[CorpusRun | str]:
    """The same files through each tool once; on a leak-free corpus every report is false."""
    paths = [str(p.relative_to(root)) for p in files]
    out: list[CorpusRun | str] = []
    run, reports = run_toolwire(root, paths, BENCH_CONFIG)
    real = {p: {r for r in rs if r[1] != "TW000"} for p, rs in reports.items()}
    out.append(
        CorpusRun("toolwire check", run.wall, run.cpu, run.rss_mb, sum(map(len, real.values())))
    )
    return out + _rule_peers(root, paths)


def _rule_peers(root: Path, paths: Sequence[str], note: str = "") -> list[CorpusRun | str]:
    """One run of fixit and of semgrep with toolwire's rules written for them."""
    out: list[CorpusRun | str] = []
    for name, runner in (("fixit", run_fixit), ("semgrep", run_semgrep)):
        got = runner(root, paths)
        if isinstance(got, str):
            out.append(f"{name}: n/a ({got})")
        else:
            found = sum(map(len, got[1].values()))
            out.append(CorpusRun(name, got[0].wall, got[0].cpu, got[0].rss_mb, found, note))
    return out


# -- speed on the worst case: every peer doing its own default work ---------------------------

PYLINT = "pylint==4.1.5"


def _linter_run(name: str, cmd: Sequence[str], root: Path, note: str) -> CorpusRun | str:
    run = timed(cmd, cwd=root, env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    if "Traceback" in run.stderr:
        return f"{name}: n/a (crashed: {run.stderr.strip().splitlines()[-1]})"
    reports = sum(1 for line in run.stdout.splitlines() if _ANY_REPORT.match(line))
    return CorpusRun(name, run.wall, run.cpu, run.rss_mb, reports, note)


_ANY_REPORT = re.compile(r"^\S+\.py:\d+:\d+:? ")


def worst_case_speed(root: Path, files: Sequence[Path]) -> list[CorpusRun | str]:
    """One run of toolwire and of each peer over the same worst-case files (tool code appended
    to each, so toolwire analyses every one), each with one process and no cache."""
    paths = [str(p.relative_to(root)) for p in files]
    run, reports = run_toolwire(root, paths, BENCH_CONFIG)
    found = sum(len(rs) for rs in reports.values())
    out: list[CorpusRun | str] = [
        CorpusRun("toolwire check", run.wall, run.cpu, run.rss_mb, found, "its egress rules")
    ]
    ruff = shutil.which("ruff", path=str(Path(PYTHON).parent)) or shutil.which("ruff")
    if ruff is None:
        out.append("ruff: n/a (not installed)")
    else:
        cmd = [ruff, "check", "--no-cache", "--isolated", "--output-format", "concise", *paths]
        out.append(_linter_run("ruff check", cmd, root, "its default rules"))
    flake8 = flake8_bare()
    if isinstance(flake8, str):
        out.append(f"flake8: n/a ({flake8})")
    else:
        cmd = [str(flake8 / "flake8"), "--isolated", "-j", "1", *paths]
        out.append(_linter_run("flake8", cmd, root, "pyflakes + pycodestyle + mccabe"))
    pylint = venv("pylint", [PYLINT])
    if isinstance(pylint, str):
        out.append(f"pylint: n/a ({pylint})")
    else:
        cmd = [str(pylint / "pylint"), "--jobs=1", "--persistent=n", "--score=n", "--reports=n",
               "--msg-template={path}:{line}:{column}: {msg_id} {msg}", *paths]  # fmt: skip
        out.append(_linter_run("pylint", cmd, root, "its default checkers"))
    return out + _rule_peers(root, paths, "toolwire's rules written for it")
