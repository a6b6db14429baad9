"""What one file's migration tells the run (`FileOutcome`), and the guard around its work,
shared by both passes (`runner`, `finish`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from toolwire.lint import writes
from toolwire.lint.codemods.crossfile import Member
from toolwire.lint.codemods.parsing import LIBCST_RECURSION
from toolwire.lint.codemods.reports import MethodEvent
from toolwire.lint.engine import deep_walks
from toolwire.lint.findings import Finding, internal_error, unreadable

__all__ = ["FileOutcome", "Mode", "codemod_context", "digest", "guarded", "run_with_metadata"]

Mode = Literal["write", "diff", "check"]


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
    adapted: bool = False  # tool-returns put an adapter in place, not only wrapped returns
    quiet: bool = False  # nothing for wire-content in its bytes (`Prefilter.quiet`)
    digest: bytes | None = None  # of the bytes pass 1 analysed


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


def digest(data: bytes) -> bytes:
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
