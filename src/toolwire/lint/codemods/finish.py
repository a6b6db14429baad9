"""Pass two of `toolwire migrate`: wire-content, the checks, and the write of each file
(`runner` runs pass one, then this over every file)."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from toolwire.lint import files, writes
from toolwire.lint.analysis.run import Parsed
from toolwire.lint.codemods.dict_calls import dict_tool_calls
from toolwire.lint.codemods.diffs import unified_diff
from toolwire.lint.codemods.outcome import (
    FileOutcome,
    Mode,
    codemod_context,
    digest,
    guarded,
    run_with_metadata,
)
from toolwire.lint.codemods.parsing import parse_cst
from toolwire.lint.codemods.reports import REVIEW_CODES, span_of, split_findings
from toolwire.lint.config import Config
from toolwire.lint.engine import check_parsed, decode, module_name, parse, source_lines
from toolwire.lint.findings import Finding, internal_error, not_written, unreadable
from toolwire.lint.prefilter import Prefilter

__all__ = ["FinishTask", "broken", "encode_like", "finish_file", "put"]


@dataclass(frozen=True, slots=True)
class FinishTask:
    """What pass two needs of one file: pass one's text for it and the run's facts."""

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
    names: tuple[str, ...] = ()  # the functions pass one migrated here, one per `def`
    adapted: bool = False  # pass one put an adapter in place here


def finish_file(task: FinishTask) -> FileOutcome:
    return guarded(functools.partial(_finish, task), str(task.path))


def _finish(task: FinishTask, outcome: FileOutcome) -> None:
    path, config = task.path, task.config
    name = str(path)
    if task.reported or (task.new_text is None and not task.wire):
        return
    data = files.read(path)
    if isinstance(data, Finding):
        outcome.errors.append(data)
        return
    if task.digest is not None and digest(data) != task.digest:
        _raced(outcome)
        return
    outcome.left = dict_tool_calls(data, name, task.migrated_methods)
    # the run's one set, not a copy a file, unless something is added: the cache of
    # filters finds it by identity
    split = frozenset(c for c, _ in task.split)
    filters = Prefilter.of(config, task.known_tools | split if split else task.known_tools)
    if task.new_text is None and not filters.may_rewire(data):
        return
    original, problem = decode(data, name)
    if original is None:
        outcome.errors.append(problem or unreadable(name, "cannot decode"))
        return
    text = task.new_text if task.new_text is not None else original
    tree: ast.Module | None = None
    # the test on the bytes above holds for the text when the text is those bytes
    asked = task.new_text is None and data.isascii() and original == data.decode("ascii")
    # The analysis finds nothing in a module without one of its markers (analysis/run.py);
    # these filters hold more (every tool base, the split classes): no parse for it.
    if (
        task.wire
        and not _returns_only(task, data, original, filters)
        and (asked or filters.may_rewire(text))
        and filters.may_find(text)
    ):
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


def _returns_only(task: FinishTask, data: bytes, original: str, filters: Prefilter) -> bool:
    """Pass one only wrapped the returns of functions that nothing here names again, in a
    module with nothing to rewire before it: the analysis of the new text has nothing to find.

    Its only new results are those returns, and a result leaves a function only where the
    function is named (called, passed, read); an adapter is a new source of its own.
    """
    if task.new_text is None or task.adapted or filters.may_rewire(data):
        return False
    for name, defs in Counter(task.names).items():
        # every occurrence, in strings and comments too: never fewer than the real ones;
        # the substrings first, which are never fewer than the words
        if original.count(name) <= defs:
            continue
        if len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", original)) > defs:
            return False
    return True


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
    text: str, tree: ast.Module, name: str, task: FinishTask, outcome: FileOutcome
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
    task: FinishTask,
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
