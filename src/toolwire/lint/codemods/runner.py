"""Running the codemods over a tree of files, safely: what `toolwire migrate` does.

Two passes. tool-returns runs over every candidate file first and names the classes it
migrates; wire-content then runs with those classes as known tools, in every file. A
file is written once, at the end, only when its bytes change, the output parses, its
encoding round-trips, and it still holds the bytes pass 1 read (`toolwire.lint.writes`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import tokenize
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from toolwire.lint import files, writes
from toolwire.lint.analysis.run import Parsed
from toolwire.lint.codemods.crossfile import (
    CrossFile,
    Member,
    family_holds,
    index_instances,
    index_module,
    split_declarations,
)
from toolwire.lint.codemods.dict_calls import dict_tool_calls
from toolwire.lint.codemods.diffs import unified_diff
from toolwire.lint.codemods.parsing import LIBCST_RECURSION, parse_cst
from toolwire.lint.codemods.reports import (
    REVIEW_CODES,
    MethodEvent,
    one_line,
    span_of,
    split_findings,
)
from toolwire.lint.config import Config
from toolwire.lint.engine import (
    batch_gc,
    check_parsed,
    decode,
    deep_walks,
    module_name,
    parse,
    source_lines,
)
from toolwire.lint.findings import Finding, escape, internal_error, not_written, unreadable
from toolwire.lint.model import shapes_for
from toolwire.lint.pool import Pool
from toolwire.lint.prefilter import Prefilter

__all__ = ["CODEMODS", "FileOutcome", "Summary", "migrate_paths", "put"]

CODEMODS = ("tool-returns", "wire-content")
Mode = Literal["write", "diff", "check"]
# Told (files, steps) once the files are known, before any work; gives `advance(done)`.
Progress = Callable[[int, int], Callable[[int], None]]


def _no_step(done: int) -> None:
    pass


def _no_progress(files: int, steps: int) -> Callable[[int], None]:
    return _no_step


@dataclass(slots=True)
class FileOutcome:
    path: str
    errors: list[Finding] = field(default_factory=list)
    migrated: list[MethodEvent] = field(default_factory=list)
    skipped: list[MethodEvent] = field(default_factory=list)
    # How many returns tool-returns wrapped in ToolResult.text / ToolResult.error, and how
    # many of the latter it made errors by their text (an error marker).
    returns_text: int = 0
    returns_error: int = 0
    returns_marked: int = 0
    known_tools: set[str] = field(default_factory=set)
    wired: set[str] = field(default_factory=set)
    results: dict[str, bool] = field(default_factory=dict)
    kept_tools: dict[str, str] = field(default_factory=dict)
    members: list[Member] = field(default_factory=list)
    sinks: int = 0
    str_calls: int = 0
    review: list[Finding] = field(default_factory=list)
    left: list[MethodEvent] = field(default_factory=list)  # call sites left for a person
    changed: bool = False
    kept: bool = False  # the file was left as it was because of an error
    raced: bool = False  # the file changed on disk during the run, and was left alone
    stopped: bool = False  # Ctrl-C came before its work or its write began: left alone
    diff: bytes = b""
    new_text: str | None = None  # after tool-returns, handed to the second pass
    digest: bytes | None = None  # of the bytes pass 1 analysed


@dataclass(slots=True)
class Summary:
    mode: Mode
    codemods: tuple[str, ...]
    files_scanned: int = 0
    outcomes: list[FileOutcome] = field(default_factory=list)
    errors: list[Finding] = field(default_factory=list)
    skipped_links: list[str] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C: no write began after it

    @property
    def changed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.changed]

    @property
    def raced(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.raced]

    def total(self, name: str) -> int:
        return sum(int(getattr(o, name)) for o in self.outcomes)

    def items(self, name: str) -> list[Any]:
        return [item for o in self.outcomes for item in getattr(o, name)]

    @property
    def all_errors(self) -> list[Finding]:
        return sorted([*self.errors, *self.items("errors")])

    def as_json(self) -> dict[str, Any]:
        def event(e: MethodEvent) -> dict[str, Any]:
            data = {"path": e.path, "line": e.line, "class": e.cls, "method": e.method}
            return {**data, "reason": e.reason} if e.reason else data

        def finding(f: Finding) -> dict[str, Any]:
            data = {"path": f.path, "line": f.line, "column": f.column, "code": f.code}
            data["message"] = f.message
            return {**data, "problem": f.problem} if f.problem else data

        data: dict[str, Any] = {
            "mode": self.mode,
            "codemods": list(self.codemods),
            "files_scanned": self.files_scanned,
            "files_changed": len(self.changed),
            "changed": [o.path for o in self.changed],
            "methods_migrated": len(self.items("migrated")),
            "returns_text": self.total("returns_text"),
            "returns_error": self.total("returns_error"),
            "returns_error_by_marker": self.total("returns_marked"),
            "sinks_moved": self.total("sinks"),
            "str_calls_moved": self.total("str_calls"),
            "migrated": [event(e) for e in self.items("migrated")],
            "skipped": [event(e) for e in self.items("skipped")],
            "left_for_review": [finding(f) for f in self.items("review")],
            "left_for_a_person": [event(e) for e in self.items("left")],
            "errors": [finding(f) for f in self.all_errors],
            "changed_during_run": [o.path for o in self.raced],
            "skipped_symlinks": self.skipped_links,
            "interrupted": self.interrupted,
        }
        if self.mode == "diff":
            # The patch is bytes in the file's own encoding; bytes that are not UTF-8 are
            # kept as lone surrogates (json escapes them as \udcXX).
            data["diffs"] = {
                o.path: o.diff.decode("utf-8", "surrogateescape") for o in self.changed
            }
        return data

    def as_text(self) -> list[str]:
        verb = {"write": "changed", "diff": "would change", "check": "would change"}[self.mode]
        lines = [f"{verb}: {escape(o.path)}" for o in self.changed]
        text, error = _n(self.total("returns_text"), "return"), self.total("returns_error")
        by_marker = self.total("returns_marked")
        marked = f", {by_marker} of them by an error marker" if by_marker else ""
        sinks, calls = (
            _n(self.total("sinks"), "sink payload"),
            _n(self.total("str_calls"), "str() call"),
        )
        lines.append(
            f"{_n(self.files_scanned, 'file')} scanned, {len(self.changed)} {verb}; "
            f"{_n(len(self.items('migrated')), 'method')} migrated "
            f"({text} wrapped as text, {error} as error{marked}); "
            f"{sinks} and {calls} moved to .content"
        )
        skipped = self.items("skipped")
        if skipped:
            lines.append(f"skipped {_n(len(skipped), 'method')} (left unchanged):")
            lines += [f"  {_event_line(e)}" for e in skipped]
        review = self.items("review")
        if review:
            lines.append(
                f"left for review: {_n(len(review), 'place')} the migration cannot settle "
                "(unchanged):"
            )
            lines += [f"  {f.as_text()}" for f in review]
        left = self.items("left")
        if left:
            lines.append(f"left for a person: {_n(len(left), 'call site')} (unchanged):")
            lines += [f"  {_event_line(e)}" for e in left]
        if self.skipped_links:
            lines.append(f"not followed: {_n(len(self.skipped_links), 'symlink')} out of the tree:")
            lines += [f"  {escape(link)}" for link in self.skipped_links]
        raced = self.raced
        if raced:
            lines.append(
                f"{_n(len(raced), 'file')} changed on disk during the run and "
                f"{'was' if len(raced) == 1 else 'were'} left as saved; run migrate again:"
            )
            lines += [f"  {escape(o.path)}" for o in raced]
        if self.interrupted:
            lines.append(
                f"interrupted: no write began after Ctrl-C; {_n(len(self.changed), 'file')} "
                f"{'was' if len(self.changed) == 1 else 'were'} {verb} before it (listed above), "
                "the others are left as they are"
            )
        return lines


def _event_line(event: MethodEvent) -> str:
    """A migrated/skipped method on one line: the reason's code joined, everything escaped."""
    return escape(f"{event.path}:{event.line}: {event.name}: {one_line(event.reason)}")


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _read(path: Path) -> bytes | Finding:
    return files.read(path)


def read_cst(data: bytes, name: str, outcome: FileOutcome) -> tuple[str, Any] | None:
    """The text and LibCST tree of a file's bytes; None, with the reason in `outcome`."""
    read = read_both(data, name, outcome)
    return None if read is None else read[:2]


def read_both(data: bytes, name: str, outcome: FileOutcome) -> tuple[str, Any, ast.Module] | None:
    """The text, LibCST tree and `ast` tree (CPython's parser judges first) of a file's
    bytes; None, with the reason in `outcome`."""
    text, problem = decode(data, name)
    if text is None:
        outcome.errors.append(problem or unreadable(name, "cannot decode"))
        return None
    checked, problem = parse(text, name)
    if checked is None:
        outcome.errors.append(problem or unreadable(name, "cannot parse"))
        return None
    tree, problem = parse_cst(text, name, checked)
    if tree is None:
        outcome.errors.append(problem or unreadable(name, "cannot parse"))
        return None
    return text, tree, checked


def codemod_context(path: str) -> Any:
    from libcst.codemod import CodemodContext

    return CodemodContext(filename=path)


def run_with_metadata(command: Any, tree: Any) -> Any:
    """`Codemod.transform_module` without its defensive deep copy of a tree parsed just now."""
    from libcst.metadata import MetadataWrapper

    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    with command.resolve(wrapper):
        command.context = replace(command.context, wrapper=wrapper)
        return command.transform_module_impl(wrapper.module)


# -- pass 1: tool-returns ------------------------------------------------------------------


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def guarded(work: Callable[[FileOutcome], None], name: str) -> FileOutcome:
    """Run one file's work; whatever goes wrong is a TW000 for that file, never the run's end.

    After Ctrl-C (`writes.request_stop`) no file's work begins."""
    outcome = FileOutcome(name)
    if writes.stop_requested():
        outcome.stopped = outcome.kept = True
        return outcome
    try:
        with deep_walks(LIBCST_RECURSION):
            work(outcome)
    except RecursionError:
        return FileOutcome(name, [unreadable(name, "cannot migrate: too deeply nested")], kept=True)
    except Exception as exc:  # a bug in a codemod must not stop the run or show a traceback
        problem = f"toolwire migrate: {type(exc).__name__}: {exc}"
        return FileOutcome(name, [internal_error(name, problem)], kept=True)
    return outcome


def tool_returns_file(path: Path, config: Config, cross: CrossFile | None = None) -> FileOutcome:
    return guarded(functools.partial(_tool_returns, path, config, cross), str(path))


def _tool_returns(
    path: Path, config: Config, cross: CrossFile | None, outcome: FileOutcome
) -> None:
    from toolwire.lint.codemods.tool_returns.plan import ToolReturns

    name = str(path)
    data = _read(path)
    if isinstance(data, Finding):
        outcome.errors.append(data)
        return
    if not Prefilter.of(config).may_migrate(data):
        return
    read = read_both(data, name, outcome)
    if read is None:
        return
    text, tree, checked = read
    migration = ToolReturns(config, cross)
    new = migration.run(tree, name, text)
    report = migration.report
    outcome.wired, outcome.results, outcome.kept_tools = report.wired, report.results, report.kept
    outcome.migrated, outcome.skipped = report.migrated, report.skipped
    outcome.returns_text, outcome.returns_error = report.text, report.error
    outcome.returns_marked = report.marked
    outcome.known_tools = report.known_tools
    outcome.members = report.members
    if new is not tree:
        from toolwire.lint.codemods.line_length import fit_lines
        from toolwire.lint.codemods.unused_imports import drop_unused_imports

        # the new text is generated once, and again only where a step changed the tree
        code: str = new.code
        module = module_name(path, config)
        trimmed = drop_unused_imports(tree, text, new, code, name, module, checked)
        if trimmed is not new:
            new, code = trimmed, trimmed.code
        code = fit_lines(text, new, code, path)
        if code != text:
            outcome.new_text = code
            outcome.digest = _digest(data)


# -- pass 2: wire-content, checks and the write --------------------------------------------


@dataclass(frozen=True, slots=True)
class _Finish:
    path: Path
    config: Config
    mode: Mode
    wire: bool
    known_tools: frozenset[str]
    new_text: str | None
    digest: bytes | None  # of the bytes `new_text` was made from
    migrated_methods: frozenset[str] = frozenset()  # class tool methods the run migrated
    reported: bool = False  # pass one reported an error for this file: it is left alone
    kept_classes: frozenset[str] = frozenset()  # tool classes of the run left as they are
    # kept classes with a held declaration that some migrated implementation overrides:
    # dotted class -> what a call through it may now return
    split: tuple[tuple[str, str], ...] = ()


def finish_file(task: _Finish) -> FileOutcome:
    return guarded(functools.partial(_finish, task), str(task.path))


def _finish(task: _Finish, outcome: FileOutcome) -> None:
    path, config = task.path, task.config
    name = str(path)
    if task.reported or (task.new_text is None and not task.wire):
        return
    data = _read(path)
    if isinstance(data, Finding):
        outcome.errors.append(data)
        return
    if task.digest is not None and _digest(data) != task.digest:
        _raced(outcome)
        return
    outcome.left = dict_tool_calls(data, name, task.migrated_methods)
    filters = Prefilter.of(config, task.known_tools | frozenset(c for c, _ in task.split))
    if task.new_text is None and not filters.may_rewire(data):
        return
    original, problem = decode(data, name)
    if original is None:
        outcome.errors.append(problem or unreadable(name, "cannot decode"))
        return
    text = task.new_text if task.new_text is not None else original
    tree: ast.Module | None = None
    if task.wire and filters.may_rewire(text):
        tree, problem = parse(text, name)
        if tree is None:
            if task.new_text is not None:
                outcome.errors.append(broken(name, problem))
            elif problem is not None:
                outcome.errors.append(problem)
            outcome.kept = True
            return
        text, tree = _wire_content(text, tree, name, task, outcome)
        if tree is None:
            outcome.kept = True
            return
    if text == original:
        return
    if tree is None:
        tree, problem = parse(text, name)
        if tree is None:
            outcome.errors.append(broken(name, problem))
            outcome.kept = True
            return
    new_data = encode_like(data, original, text, name, outcome)
    if new_data is not None and new_data != data:
        put(path, data, new_data, task.mode, outcome)


def put(path: Path, data: bytes, new_data: bytes, mode: Mode, outcome: FileOutcome) -> None:
    """Write `new_data` over `data` (or make its diff), the outcome saying what happened."""
    name = outcome.path
    outcome.changed = True
    if mode == "diff":
        outcome.diff = unified_diff(name, data, new_data)
    elif mode == "write":
        try:
            writes.replace_file(path, new_data, expected=data)
        except writes.ChangedOnDisk:
            _raced(outcome)
        except writes.ParentGone:
            outcome.changed, outcome.kept = False, True
        except writes.Interrupted:
            outcome.changed, outcome.kept, outcome.stopped = False, True, True
        except writes.PartWritten as exc:
            # The summary tells the truth: this file is NOT as it was.
            outcome.errors.append(not_written(name, f"cannot write: {exc}; the file is damaged"))
            outcome.changed, outcome.kept = False, True
        except OSError as exc:
            reason = files.strerror(exc)
            outcome.errors.append(not_written(name, f"cannot write: {reason}; left unchanged"))
            outcome.changed, outcome.kept = False, True


def _raced(outcome: FileOutcome) -> None:
    outcome.raced, outcome.kept, outcome.changed = True, True, False
    outcome.errors.append(
        not_written(
            outcome.path, "changed on disk during the run; left as saved, run migrate again"
        )
    )


def encode_like(
    data: bytes, original: str, text: str, name: str, outcome: FileOutcome
) -> bytes | None:
    """`text` in the file's encoding, or None (and a TW000) unless every byte round-trips."""
    encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    try:
        # The old text must give back the file's exact bytes (utf-8-sig re-adds a BOM),
        # and the new bytes must decode to the new text: `unicode_escape` and
        # friends decode fine but re-encode into something else.
        kept = original.encode(encoding) == data
        new_data = text.encode(encoding) if kept else None
        if new_data is not None and new_data.decode(encoding) != text:
            new_data = None
    except (UnicodeError, LookupError):
        new_data = None
    if new_data is None:
        outcome.errors.append(
            not_written(
                name,
                f"cannot write: the {encoding} encoding does not round-trip this file "
                "byte for byte; left unchanged",
            )
        )
        outcome.kept = True
    return new_data


def _wire_content(
    text: str, tree: ast.Module, name: str, task: _Finish, outcome: FileOutcome
) -> tuple[str, ast.Module | None]:
    # The migration rewrites whatever the analysis can prove, whatever select/ignore say;
    # only the checks that carry its fixes or its review list need to run.
    config = task.config.with_overrides(select=tuple(sorted(REVIEW_CODES)), ignore=())
    if task.kept_classes.intersection(config.tool_bases):
        # A tool base the run left as it is still returns str; it stays non-empty so that
        # a class is a tool only through a base, never by its signature.
        bases = tuple(b for b in config.tool_bases if b not in task.kept_classes)
        config = config.with_overrides(tool_bases=bases or ("<kept>",))
    config = config.with_overrides(kept_tools=tuple(sorted(task.kept_classes)))
    module = module_name(task.path, config)
    lines = source_lines(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        findings = check_parsed(
            Parsed(tree, lines, name, config, module, known_tools=task.known_tools, text=text)
        )
        if task.split:
            findings += _split_uses(tree, lines, name, config, module, task, text, findings)
    content, stringify, review = split_findings(findings)
    if not (content or stringify):
        outcome.review.extend(review)
        return text, tree
    from toolwire.lint.codemods.wire_content import WireContentCommand

    cst_tree, problem = parse_cst(text, name)
    if cst_tree is None:
        outcome.errors.append(problem or unreadable(name, "cannot parse"))
        return text, None
    command = WireContentCommand(
        codemod_context(name), config=config, known_tools=task.known_tools, findings=findings
    )
    new_text: str = run_with_metadata(command, cst_tree).code
    report = command.report
    outcome.sinks, outcome.str_calls = report.sinks, report.str_calls
    outcome.review.extend(report.review)
    for finding in report.unmatched:
        outcome.errors.append(
            internal_error(
                name,
                f"no expression at the {finding.code} span; that rewrite was not made",
                finding.line,
                finding.column,
            )
        )
    if new_text == text:
        return text, tree
    new_tree, problem = parse(new_text, name)
    if new_tree is None:
        outcome.errors.append(broken(name, problem))
        return text, None
    return new_text, new_tree


def _split_uses(
    tree: ast.Module,
    lines: Sequence[str],
    name: str,
    config: Config,
    module: str | None,
    task: _Finish,
    text: str,
    found: list[Finding],
) -> list[Finding]:
    """The uses of a call through a held declaration that would need `.content` if the
    call returned a ToolResult, each left for a person: it returns either kind now.

    The checks run once more with the split declarations' classes taken as tools; what
    they add (a rewrite or a review) is such a use. A use narrowed by
    `isinstance(x, ToolResult)` works with both, and the checks see it as fine.
    """
    split = dict(task.split)
    kept = tuple(c for c in config.kept_tools if c not in split)
    both = config.with_overrides(kept_tools=kept)
    known = task.known_tools | frozenset(split)
    every = check_parsed(Parsed(tree, lines, name, both, module, known_tools=known, text=text))
    seen = {(span_of(f), f.code) for f in found}
    why = "; ".join(split.values())
    out: list[Finding] = []
    for finding in every:
        if (span_of(finding), finding.code) in seen or finding.code not in REVIEW_CODES:
            continue
        seen.add((span_of(finding), finding.code))
        out.append(
            replace(
                finding,
                message=f"{why}: this use needs `.content` only for the first; left for a person",
                fix=None,
            )
        )
    return out


def broken(name: str, problem: Finding | None) -> Finding:
    where = f" (line {problem.line}: {problem.message})" if problem else ""
    return internal_error(
        name, f"the migrated code does not parse{where}; the file was not changed"
    )


# -- the run -------------------------------------------------------------------------------


def _pass_one(args: tuple[Path, Config, CrossFile]) -> FileOutcome:
    return tool_returns_file(*args)


def _index_one(args: tuple[Path, Config]) -> dict[str, tuple[str, ...]]:
    config = args[1]
    if not shapes_for(config.presets).classes:
        return {}
    return _index_any(args)


def _index_any(args: tuple[Path, Config]) -> dict[str, tuple[str, ...]]:
    path, config = args
    module = module_name(path, config)
    data = _read(path)
    if module is None or isinstance(data, Finding) or b"class" not in data:
        return {}
    return index_module(data, module, path.name == "__init__.py")


def _instances_one(args: tuple[Path, Config]) -> tuple[dict[str, str], dict[str, str]]:
    """The framework instances a module binds (`mcp = FastMCP(...)`) and its re-exports,
    so that `@mcp.tool` in a module that imports `mcp` is a tool (`CrossFile.instance_of`)."""
    path, config = args
    classes = frozenset(i for f in shapes_for(config.presets).functions for i in f.instances)
    module = module_name(path, config)
    data = _read(path) if classes and module is not None else None
    if module is None or data is None or isinstance(data, Finding):
        return {}, {}
    # A server is bound where its class is named; a package's `__init__` re-exports it.
    named = any(c.rpartition(".")[2].encode() in data for c in classes)
    if not named and path.name != "__init__.py":
        return {}, {}
    return index_instances(data, module, path.name == "__init__.py", classes)


_ROUNDS = 6


def _settled_pass_one(
    items: list[tuple[Path, Config]], pool: Pool, advance: Callable[[int], None]
) -> tuple[list[FileOutcome], bool, dict[str, tuple[str, ...]]]:
    """Pass one, repeated until what each file assumed about the others is what they did.

    Each round's assumptions only grow the classes left as they are, so it settles in a
    few rounds; one round does when no framework preset names class tools.
    """
    classes: dict[str, tuple[str, ...]] = {}
    for found in pool.map(_index_one, items):
        classes.update(found)
    instances: dict[str, str] = {}
    reexports: dict[str, str] = {}
    for bound, imported in pool.map(_instances_one, items):
        instances.update(bound)
        reexports.update(imported)
    cross = CrossFile(classes, instances=instances, reexports=reexports)
    family_index: dict[str, tuple[str, ...]] | None = classes or None
    for _ in range(_ROUNDS):
        first = pool.map(_pass_one, [(p, c, cross) for p, c in items], advance)
        advance = _no_step  # a later round redoes the files: progress counts the first
        if writes.stop_requested():
            return first, True, family_index or {}
        members = [m for o in first for m in o.members]
        held = dict(cross.held)
        if _may_hold(members):
            if family_index is None:  # the hierarchy is read only when a family may split
                family_index = {}
                for found in pool.map(_index_any, items):
                    family_index.update(found)
            for key, hold in family_holds(members, family_index).items():
                held.setdefault(key, hold)
        if not classes:
            if held == cross.held:
                return first, True, family_index or {}
            cross = CrossFile(held=held, instances=instances, reexports=reexports)
            continue
        wired = frozenset(w for o in first for w in o.wired)
        results = {k: v for o in first for k, v in o.results.items()}
        blocked = dict(cross.blocked)
        for outcome in first:
            for kept, why in outcome.kept_tools.items():
                for ancestor in cross.ancestors(kept):
                    if ancestor in wired and ancestor not in blocked:
                        blocked[ancestor] = (
                            f"its subclass {kept} keeps a tool method (`{why}`), "
                            "and the adapter base would wrap that too"
                        )
        settled = CrossFile(classes, wired, results, blocked, held, instances, reexports)
        if settled == cross:
            return first, True, family_index or {}
        cross = settled
    return first, False, family_index or {}


def _may_hold(members: list[Member]) -> bool:
    """Some method name is skipped in one class and migrated in another (or its stub)."""
    skipped = {m.key.rpartition(".")[2] for m in members if m.own}
    return any(m.status == "migrate" and m.key.rpartition(".")[2] in skipped for m in members)


def migrate_paths(
    paths: Sequence[str],
    config_for: Callable[[Path], Config],
    *,
    mode: Mode = "write",
    codemods: Sequence[str] = CODEMODS,
    jobs: int = 1,
    progress: Progress = _no_progress,
    on_file: Callable[[FileOutcome], None] = lambda outcome: None,
) -> Summary:
    """Run the selected codemods over `paths`; `config_for` gives each file's config, and
    `on_file` each file's outcome, in order, as soon as it and those before it are done."""
    batch_gc()
    found = files.discover_all(paths, config_for)
    listed = [p for p in found.files if str(p) != files.STDIN]
    advance = progress(len(listed), len(listed) * (2 if "tool-returns" in codemods else 1))
    summary = Summary(
        mode,
        tuple(codemods),
        len(listed),
        errors=list(found.errors),
        skipped_links=[str(p) for p in found.outside],
    )
    if mode == "write":
        for directory in dict.fromkeys(p.parent for p in listed):
            writes.sweep(directory)
    items = [(p, config_for(p)) for p in listed]
    # One pool for every step of the run: its workers fork once.
    with Pool(min(jobs, len(listed))) as pool:
        _migrate(summary, items, pool, advance, on_file)
    return summary


def _migrate(
    summary: Summary,
    items: list[tuple[Path, Config]],
    pool: Pool,
    advance: Callable[[int], None],
    on_file: Callable[[FileOutcome], None],
) -> None:
    codemods, mode = summary.codemods, summary.mode
    first: list[FileOutcome] = [FileOutcome(str(p)) for p, _ in items]
    classes: dict[str, tuple[str, ...]] = {}
    if "tool-returns" in codemods:
        first, settled, classes = _settled_pass_one(items, pool, advance)
        if writes.stop_requested():
            summary.interrupted = True  # nothing was written yet
            return
        if not settled:
            # Never write a half-agreed plan: report it, change nothing.
            summary.errors.append(
                unreadable(".", "cannot migrate: the plan across files did not settle")
            )
            return
    known = frozenset(t for o in first for t in o.known_tools)
    methods = frozenset(e.method for o in first for e in o.migrated if e.cls)
    members = [m for o in first for m in o.members]
    tools = {m.key.rpartition(".")[0] for m in members if m.status != "skip"}
    kept = frozenset(m.key.rpartition(".")[0] for m in members) - tools
    split = tuple(sorted(split_declarations(members, classes).items())) if classes else ()
    tasks = [
        _Finish(
            p,
            c,
            mode,
            "wire-content" in codemods,
            known,
            o.new_text,
            o.digest,
            methods,
            kept_classes=kept,
            split=split,
            reported=bool(o.errors),
        )
        for (p, c), o in zip(items, first, strict=True)
    ]
    ready: dict[int, FileOutcome] = {}

    def arrived(index: int, two: FileOutcome) -> None:  # handed on in the files' order
        ready[index] = _merged(first[index], two)
        while len(summary.outcomes) in ready:
            summary.outcomes.append(ready.pop(len(summary.outcomes)))
            on_file(summary.outcomes[-1])

    pool.map(finish_file, tasks, advance, arrived)
    summary.interrupted = writes.stop_requested()


def _merged(one: FileOutcome, two: FileOutcome) -> FileOutcome:
    one.new_text = None
    one.errors += two.errors
    one.sinks, one.str_calls, one.review = two.sinks, two.str_calls, two.review
    one.left = two.left
    one.changed, one.diff, one.raced = two.changed, two.diff, two.raced
    if two.kept:
        # The file was kept as it was: nothing it reports as migrated happened.
        one.migrated, one.sinks, one.str_calls = [], 0, 0
        one.returns_text = one.returns_error = one.returns_marked = 0
    return one
