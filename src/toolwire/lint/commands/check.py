"""`toolwire check`: run the syntax layer over files and report the findings.

Exit codes: 0 clean; 1 findings; 2 usage, config or input errors (a TW000 finding, an
unreadable path, an internal error). 2 wins over 1, and `--exit-zero` only turns
findings into 0: input errors still exit 2.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeVar

import click

from toolwire.lint.commands import (
    color_option,
    colour_diff,
    config_option,
    per_core,
    show_progress,
    use_colour,
)
from toolwire.lint.config import Config, ConfigError, ConfigResolver, code_problem
from toolwire.lint.engine import (
    batch_gc,
    cache_absorb,
    cache_drain,
    cached,
    cached_findings,
    caching,
    check_source,
    kept_source,
    linked,
    module_name,
)
from toolwire.lint.files import STDIN, discover, read, real_path
from toolwire.lint.findings import Finding, escape
from toolwire.lint.pool import parallel_map
from toolwire.lint.reporters import FORMATS, Report, RunError, reporter

if TYPE_CHECKING:
    from toolwire.lint.cache import Payload, ResultCache
    from toolwire.lint.codemods.runner import FileOutcome

WIRE_CODES = ("TW301", "TW302")
PARALLEL_ABOVE = 8  # files; below this a process pool costs more than it saves
_CODE = re.compile(r"TW\d{0,3}")
FIX_ROUNDS = 3  # a fix can change what a module exports, and so the findings of others
FixMode = Literal["write", "diff"]
_R = TypeVar("_R")


STATISTICS_FORMATS = ("text", "json")


# The run's records are NamedTuples: a frozen dataclass compiles its methods from text at
# every start-up.
class Output(NamedTuple):
    """Where and how much to report: `--output-file`, `--quiet`, `--statistics`."""

    file: Path | None = None
    quiet: bool = False
    statistics: bool = False
    colour: bool = False  # `--color`: the text report and the `--diff` patch on stdout


class Adoption(NamedTuple):
    """`--baseline FILE` (else the config's `baseline`), `--update-baseline`, `--add-noqa`."""

    baseline: Path | None = None
    update: bool = False
    add_noqa: bool = False


class Caching(NamedTuple):
    """`--no-cache`, `--cache-dir` (else `TOOLWIRE_CACHE_DIR`, else the user cache dir), `-v`."""

    enabled: bool = True
    directory: Path | None = None
    verbose: bool = False


class Task(NamedTuple):
    """One file to check; pickled to worker processes."""

    path: str
    display: str
    config: Config
    module: str | None
    fix: FixMode | None = None  # `--fix` / `--diff`: also make the file's safe fixes


# `run`'s defaults (a NamedTuple is immutable, as the frozen dataclasses they were).
_REPORT, _NO_ADOPTION, _NO_CACHE = Output(), Adoption(), Caching(enabled=False)


FileResult = tuple[list[Finding], list[RunError]]
FixResult = tuple[list[Finding], list[RunError], "FileOutcome | None"]


def check_file(task: Task, source: bytes | None = None) -> FileResult:
    """Findings for one file; never raises (a crash becomes an internal error)."""
    try:
        return _checked(task, source)[0], []
    except Exception as exc:
        return [], [internal_error(task.display, exc)]


def _checked(task: Task, source: bytes | None) -> tuple[list[Finding], bytes | None]:
    kept = source if source is not None else kept_source(task.module, task.display)
    data = kept if kept is not None else read(Path(task.path))
    if isinstance(data, Finding):
        return [replace(data, path=task.display)], None
    return check_source(data, task.display, task.config, module=task.module), data


def check_file_cached(task: Task) -> tuple[FileResult, dict[bytes, Payload]]:
    """`check_file`, with the cache entries this process added meanwhile."""
    result = check_file(task)
    return result, cache_drain()


def check_and_fix(task: Task) -> FixResult:
    """`check_file`, then the fixes of its findings, made from the bytes they are of."""
    try:
        found, data = _checked(task, None)
    except Exception as exc:
        return [], [internal_error(task.display, exc)], None
    from toolwire.lint.codemods.reports import FIX

    if task.fix is None or data is None or not any(f.fix == FIX for f in found):
        return found, [], None
    from toolwire.lint.codemods.fixes import FixTask, fix_file

    fix = FixTask(task.path, task.display, task.config, tuple(found), data, task.fix)
    return found, [], fix_file(fix)


def internal_error(path: str, exc: BaseException) -> RunError:
    return RunError(path, f"internal error in {path}: {type(exc).__name__}: {exc}")


# -- options -------------------------------------------------------------------------------


def _split_codes(
    ctx: click.Context, param: click.Parameter, values: Sequence[str]
) -> tuple[str, ...] | None:
    if not values:
        return None
    codes = tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())
    for code in codes:
        if not _CODE.fullmatch(code):
            raise click.BadParameter(f"{code!r} is not a TW code or prefix (e.g. TW301, TW3)")
        problem = code_problem(code)
        if problem is not None:
            raise click.BadParameter(problem)
    return codes


@click.command("check")
# Not click.Path: it stats every path (and fails an unreadable one as a usage error); the
# walk reports a bad path as a TW000 of its own and goes on.
@click.argument("paths", nargs=-1, type=str)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(FORMATS)),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--select",
    multiple=True,
    callback=_split_codes,
    help="Codes or prefixes to report (comma separated, repeatable); replaces the config's.",
)
@click.option(
    "--ignore",
    multiple=True,
    callback=_split_codes,
    help="Codes or prefixes to leave out (comma separated, repeatable); replaces the config's.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=None,
    help="Worker processes (0: one per core). Default: one per core for more than "
    f"{PARALLEL_ABOVE} files, else 1.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even with findings (not on errors).")
@click.option(
    "--fix",
    is_flag=True,
    help="Apply the safe fixes (wire-content: `.content` at a sink) in place, then report "
    "the findings that remain.",
)
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Print the safe fixes as a unified diff instead of applying them; write nothing. "
    "Exit 1 if there is any.",
)
@click.option(
    "--output-file",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to this file instead of stdout (remarks stay on stderr).",
)
@click.option(
    "--quiet", "-q", is_flag=True, help="Report findings and errors only: no notes, no summary."
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Report how many findings each code has instead of the findings (text or json).",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Hide the findings recorded in this JSON file and report only new ones; when it "
    "does not exist, record every current finding in it and exit 0. Default: the config's "
    "`baseline`.",
)
@click.option(
    "--update-baseline",
    is_flag=True,
    help="Record the current findings in the baseline again, dropping the fixed ones.",
)
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Add `# noqa: TWnnn` comments to every line with a finding, and exit 0.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Analyse every file afresh, and neither read nor write the result cache.",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="TOOLWIRE_CACHE_DIR",
    default=None,
    help="Where the result cache lives (env TOOLWIRE_CACHE_DIR). Default: "
    "$XDG_CACHE_HOME/toolwire, else ~/.cache/toolwire; one file per project.",
)
@click.option("--verbose", "-v", is_flag=True, help="Also say how many files the cache answered.")
@color_option("the text report and --diff")
@config_option()
@click.option(
    "--stdin-filename",
    default=None,
    help="The name of the file read from stdin (`-`): shown in output, used to find config.",
)
def command(
    paths: tuple[str, ...],
    output_format: str,
    select: tuple[str, ...] | None,
    ignore: tuple[str, ...] | None,
    jobs: int | None,
    exit_zero: bool,
    fix: bool,
    show_diff: bool,
    output_file: Path | None,
    quiet: bool,
    statistics: bool,
    baseline: Path | None,
    update_baseline: bool,
    add_noqa: bool,
    no_cache: bool,
    cache_dir: Path | None,
    verbose: bool,
    color: str,
    config_file: Path | None,
    stdin_filename: str | None,
) -> None:
    """Check PATH... (default: the current directory) for tool results leaking to the wire.

    `-` reads stdin. Exit codes: 0 clean, 1 findings, 2 usage, config or input errors.
    """
    if statistics and output_format not in STATISTICS_FORMATS:
        raise click.UsageError(f"--statistics goes with --format text or json, not {output_format}")
    if add_noqa and (baseline or update_baseline):
        raise click.UsageError("--add-noqa goes without --baseline and --update-baseline")
    if add_noqa and (fix or show_diff):
        raise click.UsageError("--add-noqa goes without --fix and --diff")
    if add_noqa and (stdin_filename or STDIN in paths):
        raise click.UsageError("--add-noqa writes files: it cannot read stdin")
    fix_mode: FixMode | None = "diff" if show_diff else "write" if fix else None
    if fix_mode is not None and (stdin_filename or STDIN in paths):
        raise click.UsageError("--fix and --diff rewrite files: stdin (`-`) is not supported")
    try:
        # Ctrl-C stops between the fixes' writes, never inside one.
        with _sigint(fix_mode):
            status = run(
                paths,
                output_format=output_format,
                select=select,
                ignore=ignore,
                jobs=jobs,
                exit_zero=exit_zero,
                config_file=config_file,
                stdin_filename=stdin_filename,
                output=Output(output_file, quiet, statistics, use_colour(color)),
                adoption=Adoption(baseline, update_baseline, add_noqa),
                fix=fix_mode,
                caching=Caching(not no_cache, cache_dir, verbose),
            )
    except Exception as exc:  # the last line of defence: never a traceback
        click.echo(f"toolwire: internal error: {type(exc).__name__}: {exc}", err=True)
        status = 2
    sys.exit(status)


def _sigint(fix: FixMode | None) -> contextlib.AbstractContextManager[None]:
    if fix != "write":
        return contextlib.nullcontext()
    from toolwire.lint import writes

    return writes.catch_sigint()


# -- the run -------------------------------------------------------------------------------


def display_path(path: Path, cwd: Path) -> str:
    """Relative to the working directory when below it, else as given."""
    text = str(path)
    if not path.is_absolute():
        return text
    # Strings, not PurePath.relative_to: this runs once per file of the run.
    below = str(cwd).rstrip(os.sep) + os.sep
    if text.startswith(below):
        return text[len(below) :]
    real = real_path(text)
    return real[len(below) :] if real.startswith(below) else text


def run(
    paths: Sequence[str],
    *,
    output_format: str = "text",
    select: tuple[str, ...] | None = None,
    ignore: tuple[str, ...] | None = None,
    jobs: int | None = None,
    exit_zero: bool = False,
    config_file: Path | None = None,
    stdin_filename: str | None = None,
    output: Output = _REPORT,
    adoption: Adoption = _NO_ADOPTION,
    fix: FixMode | None = None,
    caching: Caching = _NO_CACHE,
) -> int:
    if not paths:
        paths = (STDIN,) if stdin_filename else (".",)
    batch_gc()
    cwd = Path.cwd()
    overrides = {"select": select, "ignore": ignore}
    configs = ConfigResolver(config_file, {k: v for k, v in overrides.items() if v is not None})
    files, input_errors = discover(paths, configs)  # under the tables' `exclude`

    tasks: list[Task] = []
    stdin_task: Task | None = None
    problems: dict[str, None] = {}
    crashes: list[RunError] = []
    for path in files:
        try:
            task = _task(path, cwd, configs, stdin_filename)
        except Exception as exc:
            crashes.append(internal_error(display_path(path, cwd), exc))
            continue
        if isinstance(task, ConfigError):
            problems[str(task)] = None
        elif task.path == STDIN:
            stdin_task = task if not _force_excluded(task) else None
        else:
            tasks.append(task)
    if problems:
        for problem in problems:
            click.echo(f"toolwire: {problem}", err=True)
        return 2

    if stdin_task is None:  # read nowhere, counted nowhere (force-exclude)
        files = [f for f in files if str(f) != STDIN]
    results = [_check_stdin(stdin_task)] if stdin_task is not None else []
    with _cached_run(caching if fix is None else Caching(False), configs, cwd, len(tasks)):
        found, outcomes, before = _check_tree(tasks, jobs, fix)
    results += found
    if fix == "diff":
        return _write_diff(results, crashes, outcomes, input_errors, output)

    findings = [f for found, _ in results for f in found] + input_errors
    findings += [e for o in outcomes for e in o.errors]
    errors = crashes + [e for _, errors in results for e in errors]
    adopted = _adopt(findings, [*tasks, *([stdin_task] if stdin_task else [])], configs, adoption)
    if isinstance(adopted, int):
        return adopted
    findings, final = adopted
    if final and not findings and not errors:
        return 0
    report = Report(
        findings=findings,
        errors=errors,
        files_checked=len(files) + len({f.path for f in input_errors}),
        notes=_notes(
            # A FIFO `*.py` is one TW000 and no file to check: not "no Python files found".
            [*files, *(Path(f.path) for f in input_errors)],
            [t.config for t in tasks] + ([stdin_task.config] if stdin_task else []),
        ),
    )
    report.quiet, report.colour = output.quiet, output.colour and output.file is None
    if fix is not None:
        report.fixed = max(0, before - sum(len(found) for found, _ in results))
    if not _write_report(report, output_format, output):
        return 2
    if report.input_errors or report.errors:
        return 2
    return 1 if report.findings and not exit_zero else 0


def _adopt(
    findings: list[Finding], tasks: Sequence[Task], configs: ConfigResolver, adoption: Adoption
) -> tuple[list[Finding], bool] | int:
    """The findings left to report after the baseline and `--add-noqa`, and whether the
    run's work is done (nothing else to say when none is left); or the exit status."""
    path = adoption.baseline
    if path is None:
        try:
            path = configs.load(configs.source_for(Path.cwd() / STDIN)).baseline
        except ConfigError as exc:
            click.echo(f"toolwire: {exc}", err=True)
            return 2
    if path is None and adoption.update:
        click.echo("toolwire: --update-baseline needs --baseline FILE or `baseline`", err=True)
        return 2
    if path is not None:
        # --add-noqa comments what the check would report: the findings the baseline hides
        # stay as they are, and a baseline that does not exist yet is not written.
        done = _baseline(findings, tasks, path, adoption.update, record=not adoption.add_noqa)
        if isinstance(done, int) or done[1]:
            return done
        findings = done[0]
    if adoption.add_noqa:
        from toolwire.lint.commands.add_noqa import add_noqa

        return add_noqa(findings)
    return findings, False


def _baseline(
    findings: list[Finding], tasks: Sequence[Task], path: Path, update: bool, *, record: bool
) -> tuple[list[Finding], bool] | int:
    from toolwire.lint.commands import baseline as bl

    def enabled(config: Config, display: str) -> Callable[[str], bool]:
        return lambda code: config.enabled(code) and not config.silenced(display, code)

    scope = bl.Scope({bl.relative(t.display, path): enabled(t.config, t.display) for t in tasks})
    shown = escape(display_path(path, Path.cwd()))
    try:
        old = bl.load(path) if path.exists() else None
        if old is not None and not update:
            kept, fixed = bl.hide(findings, old, path, scope)
            if fixed:
                click.echo(
                    f"toolwire: note: {bl.plural(fixed, 'baseline entry')} of {shown} "
                    f"{'is' if fixed == 1 else 'are'} fixed; --update-baseline drops them",
                    err=True,
                )
            return kept, False
        if old is None and not record:
            return findings, False
        new, dropped = bl.update(findings, old or [], path, scope)
        bl.dump(path, new)
    except bl.BaselineError as exc:
        click.echo(f"toolwire: {exc}", err=True)
        return 2
    recorded = sum(e.count for e in new)
    gone = f"; dropped {bl.plural(dropped, 'fixed entry')}" if dropped else ""
    click.echo(f"toolwire: recorded {bl.plural(recorded, 'finding')} in {shown}{gone}", err=True)
    return [f for f in findings if f.code == bl.UNREADABLE], True


def _write_report(report: Report, output_format: str, output: Output) -> bool:
    """The report to stdout or `output.file`; False when that file cannot be written."""
    for stream in (sys.stdout, sys.stderr):
        # Reporters escape what they write; this keeps a strict non-UTF-8 stream from
        # dropping the whole report over one character it cannot encode.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    render = reporter(output_format)
    if output.statistics:
        from toolwire.lint.reporters import statistics

        render = statistics.json if output_format == "json" else statistics.text
    if output.file is not None:
        try:
            with open(output.file, "w", encoding="utf-8", errors="backslashreplace") as out:
                render(report, out, sys.stderr)
        except OSError as exc:
            where = escape(str(output.file))
            click.echo(f"toolwire: cannot write {where}: {exc.strerror or exc}", err=True)
            return False
        return True
    try:
        render(report, sys.stdout, sys.stderr)
        sys.stdout.flush()
    except BrokenPipeError:  # `toolwire check | head`: the reader is gone, not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return True


def _task(
    path: Path, cwd: Path, configs: ConfigResolver, stdin_filename: str | None
) -> Task | ConfigError:
    named = Path(stdin_filename) if stdin_filename else None
    try:
        config = configs(path if str(path) != STDIN else named or cwd / STDIN)
    except ConfigError as exc:
        return exc
    if str(path) != STDIN:
        return Task(str(path), display_path(path, cwd), config, module_name(path, config))
    module = module_name(named, config) if named else None
    return Task(STDIN, stdin_filename or STDIN, config, module)


def _force_excluded(task: Task) -> bool:
    """`--stdin-filename` names a file the table excludes with `force-exclude`, as ruff."""
    config = task.config
    return task.display != STDIN and config.force_exclude and config.excludes(task.display)


def _notes(files: Sequence[Path], configs: Iterable[Config]) -> list[str]:
    if not files:
        return ["no Python files found"]
    used = list(dict.fromkeys(configs))
    wire_enabled = any(c.enabled(code) for c in used for code in WIRE_CODES)
    if used and wire_enabled and not any(c.has_wire_sinks for c in used):
        return [
            "no wire sinks configured: TW301/TW302 are silent until `wire-sinks` or "
            "`presets` are set in [tool.toolwire]"
        ]
    return []


def _job_count(jobs: int | None, files: int) -> int:
    if jobs is None:
        jobs = (os.cpu_count() or 1) if files > PARALLEL_ABOVE else 1
    return max(1, min(per_core(jobs), files))


def _check_all(tasks: Sequence[Task], jobs: int, work: Callable[[Task], _R]) -> list[_R]:
    """Results in the order of `tasks`, checked in `jobs` processes."""
    if not tasks:
        return []
    cost = [_size(task.path) for task in tasks] if jobs > 1 else None
    if not show_progress(len(tasks)):
        return parallel_map(work, tasks, jobs, cost=cost)
    with click.progressbar(length=len(tasks), label="toolwire", file=sys.stderr) as bar:
        return parallel_map(work, tasks, jobs, bar.update, cost=cost)


def _size(path: str) -> float:
    """What checking a file costs, about: its size (the largest are handed out first)."""
    try:
        return float(os.stat(path).st_size)
    except OSError:
        return 0.0


def _check_cached(tasks: Sequence[Task], jobs_option: int | None) -> list[FileResult]:
    """The results the cache answers without reading a file, then the others, in workers
    when there are enough of them (a warm run starts none)."""
    results: dict[int, FileResult] = {}
    for index, task in enumerate(tasks):
        found = cached_findings(task)
        if found is not None:
            results[index] = (found, [])
    rest = [index for index in range(len(tasks)) if index not in results]
    work = [tasks[index] for index in rest]
    rows = _check_all(work, _job_count(jobs_option, len(work)), check_file_cached)
    for index, (result, fresh) in zip(rest, rows, strict=True):
        results[index] = result
        cache_absorb(fresh)
    return [results[index] for index in range(len(tasks))]


def _check_stdin(task: Task) -> FileResult:
    source = read(Path(STDIN))
    if isinstance(source, Finding):
        return [replace(source, path=task.display)], []
    return check_file(task, source)


def _check_tree(
    tasks: Sequence[Task], jobs_option: int | None, mode: FixMode | None
) -> tuple[list[FileResult], list[FileOutcome], int]:
    """(the findings that remain, what each fix did, how many findings there were first).

    With `--diff` those are the findings before the fixes. A written fix can change what
    its module exports to the others, so the tree is checked (and fixed) again until
    nothing changes.
    """
    jobs = _job_count(jobs_option, len(tasks))
    if mode is None:
        with linked(tasks):  # each module sees what the modules it imports export
            if not caching():
                return _check_all(tasks, jobs, check_file), [], 0
            return _check_cached(tasks, jobs_option), [], 0
    plan = [task._replace(fix=mode) for task in tasks]
    outcomes: dict[str, FileOutcome] = {}  # the last round's word on each file
    before: int | None = None
    for _ in range(FIX_ROUNDS):
        with linked(tasks):
            found = _check_all(plan, jobs, check_and_fix)
        results = [(findings, errors) for findings, errors, _ in found]
        if before is None:
            before = sum(len(findings) for findings, _ in results)
        made = [outcome for *_, outcome in found if outcome is not None]
        outcomes.update((o.path, o) for o in made)
        if mode == "diff" or not any(o.changed for o in made):
            return results, list(outcomes.values()), before
    with linked(tasks):
        return _check_all(tasks, jobs, check_file), list(outcomes.values()), before or 0


def _open_cache(caching: Caching, configs: ConfigResolver, cwd: Path) -> ResultCache | None:
    """The result cache of the project (its config's directory, else `cwd`), or None."""
    if not caching.enabled:
        return None
    from toolwire.lint import cache

    try:
        source = configs.source_for(cwd / STDIN)
    except ConfigError:
        source = None
    root = source.parent if source is not None else cwd
    directory = caching.directory or cache.default_dir()
    return cache.load(cache.cache_file(directory.absolute(), root))


@contextlib.contextmanager
def _cached_run(caching: Caching, configs: ConfigResolver, cwd: Path, files: int) -> Iterator[None]:
    """The run inside reuses and records results in the cache; then they are written."""
    store = _open_cache(caching, configs, cwd) if files else None
    with cached(store):
        yield
    if store is not None:
        _close_cache(store, caching, files)


def _close_cache(store: ResultCache, caching: Caching, files: int) -> None:
    """Write what this run added; a cache that cannot be written is no error (`-v` says)."""
    from toolwire.lint import cache

    problem = cache.save(store)
    if caching.verbose:
        analysed = len(store.added)
        reused = max(0, files - analysed)
        unread = f", {store.unread} not read" if store.unread else ""
        click.echo(
            f"toolwire: cache: {analysed} analysed, {reused} reused{unread} "
            f"({escape(str(store.file))})",
            err=True,
        )
        if problem:
            click.echo(f"toolwire: note: {escape(problem)}", err=True)


def _write_diff(
    results: list[FileResult],
    crashes: list[RunError],
    outcomes: list[FileOutcome],
    input_errors: list[Finding],
    output: Output,
) -> int:
    """`--diff`: the patch on stdout (or `output.file`), problems and a summary on stderr."""
    changed = sorted((o for o in outcomes if o.changed), key=lambda o: o.path)
    problems = sorted(
        [f for found, _ in results for f in found if f.code == "TW000"]
        + input_errors
        + [e for o in outcomes for e in o.errors]
    )
    errors = sorted(crashes + [e for _, errors in results for e in errors])
    patch = b"".join(o.diff for o in changed)
    try:
        if output.file is not None:
            output.file.write_bytes(patch)
        elif output.colour:
            click.echo(colour_diff(patch.decode("utf-8", "replace")), nl=False, color=True)
        else:
            sys.stdout.buffer.write(patch)
            sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:
        where = escape(str(output.file))
        click.echo(f"toolwire: cannot write {where}: {exc.strerror or exc}", err=True)
        return 2
    for line in [p.as_text() for p in problems] + [e.as_text() for e in errors]:
        click.echo(line, err=True)
    if not output.quiet:
        fixes = sum(o.sinks + o.str_calls for o in changed)
        files = f"{len(changed)} file{'' if len(changed) == 1 else 's'}"
        click.echo(
            f"toolwire: would fix {fixes} finding{'' if fixes == 1 else 's'} in {files}", err=True
        )
    if problems or errors:
        return 2
    return 1 if changed else 0
