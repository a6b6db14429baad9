"""Running the codemods over a tree of files, safely: what `toolwire migrate` does.

Two passes. tool-returns runs over every candidate file first and names the classes it
migrates; wire-content then runs with those classes as known tools, in every file. A
file is written once, at the end, only when its bytes change, the output parses, its
encoding round-trips, and it still holds the bytes pass 1 read (`toolwire.lint.writes`).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolwire.lint import files, writes
from toolwire.lint.codemods.crossfile import (
    CrossFile,
    Member,
    family_holds,
    index_instances,
    index_module,
    split_declarations,
)
from toolwire.lint.codemods.finish import FinishTask, finish_file
from toolwire.lint.codemods.outcome import FileOutcome, Mode, guarded
from toolwire.lint.codemods.outcome import digest as _digest
from toolwire.lint.codemods.parsing import parse_cst
from toolwire.lint.codemods.reports import (
    MethodEvent,
    one_line,
)
from toolwire.lint.codemods.skeleton import SENTINEL, denied_words, reads_strings
from toolwire.lint.codemods.skeleton import skeleton as blanked
from toolwire.lint.config import Config
from toolwire.lint.engine import (
    batch_gc,
    decode,
    module_name,
    parse,
)
from toolwire.lint.findings import Finding, escape, unreadable
from toolwire.lint.model import shapes_for
from toolwire.lint.pool import Pool
from toolwire.lint.prefilter import Prefilter

__all__ = ["CODEMODS", "FileOutcome", "Mode", "Summary", "migrate_paths"]

CODEMODS = ("tool-returns", "wire-content")
# Told (files, steps) once the files are known, before any work; gives `advance(done)`.
Progress = Callable[[int, int], Callable[[int], None]]


def _no_step(done: int) -> None:
    pass


def _no_progress(files: int, steps: int) -> Callable[[int], None]:
    return _no_step


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
    judged = read_ast(data, name, outcome)
    tree = None if judged is None else _whole_cst(*judged, name, outcome)
    return None if judged is None or tree is None else (judged[0], tree)


def read_ast(data: bytes, name: str, outcome: FileOutcome) -> tuple[str, ast.Module] | None:
    """The text and `ast` tree of a file's bytes (CPython's parser judges first); None,
    with the reason in `outcome`."""
    text, problem = decode(data, name)
    if text is None:
        outcome.errors.append(problem or unreadable(name, "cannot decode"))
        return None
    checked, problem = parse(text, name)
    if checked is None:
        outcome.errors.append(problem or unreadable(name, "cannot parse"))
        return None
    return text, checked


def _whole_cst(text: str, checked: ast.Module, name: str, outcome: FileOutcome) -> Any:
    """The LibCST tree of the whole `text`; None, with the reason in `outcome`."""
    tree, problem = parse_cst(text, name, checked)
    if tree is None:
        outcome.errors.append(problem or unreadable(name, "cannot parse"))
    return tree


# -- pass 1: tool-returns ------------------------------------------------------------------


def tool_returns_file(
    path: Path, config: Config, cross: CrossFile | None = None, *, skeleton: bool = True
) -> FileOutcome:
    return guarded(functools.partial(_tool_returns, path, config, cross, skeleton), str(path))


def _tool_returns(
    path: Path, config: Config, cross: CrossFile | None, skeleton: bool, outcome: FileOutcome
) -> None:
    name = str(path)
    data = _read(path)
    if isinstance(data, Finding):
        outcome.errors.append(data)
        return
    filters = Prefilter.of(config)
    outcome.quiet = filters.quiet(data)  # pass two may then leave the file alone
    if not filters.may_migrate(data):
        return
    judged = read_ast(data, name, outcome)
    if judged is None:
        return
    text, checked = judged
    done = False
    if skeleton:
        # LibCST parses only what the plan can read; any doubt redoes the file whole
        denied = denied_words(config, cross or CrossFile())
        bare = blanked(text, checked, denied, reads_strings(config))
        if bare is not None:
            tree, _ = parse_cst(bare.text, name, checked, source=text)  # the whole parse says why
            done = tree is not None and _planned(path, config, cross, text, checked, tree, outcome)
    if not done:
        tree = _whole_cst(text, checked, name, outcome)
        if tree is None:
            return
        _planned(path, config, cross, text, checked, tree, outcome, whole=True)
    if outcome.new_text is not None:
        outcome.digest = _digest(data)


def _planned(
    path: Path,
    config: Config,
    cross: CrossFile | None,
    text: str,
    checked: ast.Module,
    tree: Any,
    outcome: FileOutcome,
    whole: bool = False,
) -> bool:
    """Plan and rewrite `tree` (of `text`, or of its skeleton unless `whole`) into
    `outcome`; False, with `outcome` untouched, when a skeleton cannot give the bytes the
    whole tree gives."""
    from toolwire.lint.codemods.tool_returns.plan import ToolReturns

    name = str(path)
    migration = ToolReturns(config, cross)
    new = migration.run(tree, name, text)
    code = text
    if new is not tree:
        from toolwire.lint.codemods.line_length import fit_lines
        from toolwire.lint.codemods.splice import generated, splice
        from toolwire.lint.codemods.unused_imports import drop_unused_imports

        # the new text is generated only where the rewrite changed the tree, and again
        # (whole) only where a later step changed it
        spliced = splice(tree, text, checked, new)
        if spliced is None and not whole:
            return False
        code = new.code if spliced is None else spliced.code
        module = module_name(path, config)
        trimmed = drop_unused_imports(tree, text, new, code, name, module, checked, spliced)
        if trimmed is not new:
            if not whole:
                return False  # it rewrote the tree: a skeleton's would lose bodies
            new, code, spliced = trimmed, trimmed.code, None
        parts = None if spliced is None else spliced.new
        generate = functools.partial(generated, tree, text, checked)
        code = fit_lines(text, new, code, path, parts, generate, tree)
        if not whole and SENTINEL in code:
            # a blanked body was generated (`Module.code` of the skeleton, by a step that
            # could not splice): only the whole tree has its text
            return False
    report = migration.report
    outcome.wired, outcome.results, outcome.kept_tools = report.wired, report.results, report.kept
    outcome.migrated, outcome.skipped = report.migrated, report.skipped
    outcome.returns_text, outcome.returns_error = report.text, report.error
    outcome.returns_marked = report.marked
    outcome.known_tools = report.known_tools
    outcome.members = report.members
    outcome.adapted = migration.adapted
    if code != text:
        outcome.new_text = code
    return True


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
    held = known | frozenset(c for c, _ in split)
    pairs = enumerate(zip(first, items, strict=True))
    todo = [i for i, (o, (_, c)) in pairs if not _alone(o, c, held, methods)]
    tasks = [
        FinishTask(
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
            names=tuple(e.method for e in o.migrated),
            adapted=o.adapted,
        )
        for (p, c), o in ((items[i], first[i]) for i in todo)
    ]
    ready: dict[int, FileOutcome] = {}

    def arrived(index: int, two: FileOutcome) -> None:  # handed on in the files' order
        ready[index] = _merged(first[index], two)
        while len(summary.outcomes) in ready:
            summary.outcomes.append(ready.pop(len(summary.outcomes)))
            on_file(summary.outcomes[-1])

    chosen = set(todo)
    for index, outcome in enumerate(first):
        if index not in chosen:
            arrived(index, FileOutcome(outcome.path))
    advance(len(first) - len(todo))
    pool.map(finish_file, tasks, advance, lambda at, two: arrived(todo[at], two))
    summary.interrupted = writes.stop_requested()


def _alone(
    outcome: FileOutcome, config: Config, known: frozenset[str], methods: frozenset[str]
) -> bool:
    """Pass two has nothing to do for this file: pass one left it as it was, and its bytes
    hold nothing wire-content could start from (`Prefilter.quiet`), the run's tool classes
    being too many to be looked for but after a tool method's name, and each method the
    run migrated being one that name can be."""
    if outcome.new_text is not None or outcome.migrated or not outcome.quiet:
        return False
    filters = Prefilter.of(config, known)
    return filters.results == Prefilter.of(config).results and methods <= filters.methods


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
