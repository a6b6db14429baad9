"""Migrate never changes what real code does without listing the place for a person.

The real-code half of `test_meaning_preservation.py`. The corpus: the first files, in
sorted order, of the standard library and of the installed frameworks that define a
class with a method annotated `-> str` and call it on a receiver the file itself tells
(`self.m(...)` in the class or a subclass, `C(...).m(...)`, `c = C(...); c.m(...)`).
They are copied with their package paths, those methods become `tool-methods`, and the
real `toolwire migrate` and `toolwire check` run over the copy. (The 3.11 standard
library annotates no such method, so today the corpus is the frameworks': 34 files.)
Dunder methods are left out: the language calls them (`str(x)`), no call site shows it.

Each call, in the migrated tree, of a method the run migrated must be (a) read as
`.content`, (b) on a line migrate lists (review, left for a person, skipped) or `toolwire
check` reports (TW1xx-TW3xx), or (c) used in a way that holds for a `ToolResult` too:
discarded, returned from a method that now returns one, or passed on (to a call that is
not a builtin or a str method), directly or through a name used only that way. Every
migrated file compiles and a second run changes nothing.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))
FRAMEWORKS = (
    "langchain_core",
    "llama_index.core",
    "smolagents",
    "crewai",
    "pydantic_ai",
    "agents",
    "mcp",
)
PER_ROOT = 5  # files taken from each source, so that every framework is in the corpus
STDLIB_FILES = 12
BUILTINS = frozenset(dir(builtins))
STR_METHODS = frozenset(dir(str))
Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
Function = ast.FunctionDef | ast.AsyncFunctionDef


def _is_str(annotation: ast.expr | None) -> bool:
    if isinstance(annotation, ast.Constant):
        return annotation.value == "str"
    return isinstance(annotation, ast.Name) and annotation.id == "str"


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a scope, not those of the functions and classes nested in it."""
    for child in ast.iter_child_nodes(scope):
        yield child
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield from _own_nodes(child)


@dataclass(frozen=True)
class Site:
    """A call of a tool method on a receiver the file tells: `C.m` is what it calls."""

    call: ast.Call
    cls: str
    method: str
    scope: Scope


class Module:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents = _parents(tree)
        found: dict[str, list[ast.ClassDef]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
        # A name two classes share is not a receiver the file tells.
        self.classes = {name: nodes[0] for name, nodes in found.items() if len(nodes) == 1}

    def resolve(self, cls: str, method: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The class of this file whose `method` a `cls` instance runs (bases left to right)."""
        node = self.classes.get(cls)
        if node is None or cls in seen:
            return None
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method:
                return cls
        for base in node.bases:
            if isinstance(base, ast.Name):
                owner = self.resolve(base.id, method, seen | {cls})
                if owner is not None:
                    return owner
        return None

    def definition(self, cls: str, method: str) -> Function:
        for item in self.classes[cls].body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method:
                return item
        raise LookupError(cls, method)

    def _scopes(self) -> Iterator[Scope]:
        yield self.tree
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield node

    def _self_class(self, scope: Scope) -> str | None:
        """The class whose instance `self` is in this function (a method or nested in one)."""
        node: ast.AST | None = scope
        while node is not None:
            parent = self.parents.get(node)
            if isinstance(parent, ast.ClassDef) and isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef
            ):
                args = node.args.posonlyargs + node.args.args
                plain = not any(
                    isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                    for d in node.decorator_list
                )
                if plain and args and args[0].arg == "self" and parent.name in self.classes:
                    return parent.name
                return None
            if isinstance(parent, ast.ClassDef):
                return None
            node = parent
        return None

    def sites(self) -> Iterator[Site]:
        for scope in self._scopes():
            own = list(_own_nodes(scope))
            binds: dict[str, list[ast.AST]] = {}
            for node in own:
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                    binds.setdefault(node.id, []).append(node)
            if not isinstance(scope, ast.Module):
                for arg in ast.walk(scope.args):
                    if isinstance(arg, ast.arg):
                        binds.setdefault(arg.arg, []).append(arg)
            locals_: dict[str, str] = {}
            for node in own:
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and len(binds[node.targets[0].id]) == 1
                    and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)
                    and node.value.func.id in self.classes
                ):
                    locals_[node.targets[0].id] = node.value.func.id
            this = self._self_class(scope) if "self" not in locals_ else None
            for node in own:
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                receiver, method = node.func.value, node.func.attr
                cls = None
                if isinstance(receiver, ast.Name) and receiver.id == "self":
                    cls = this
                elif isinstance(receiver, ast.Name):
                    cls = locals_.get(receiver.id)
                elif (
                    isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Name)
                    and receiver.func.id in self.classes
                ):
                    cls = receiver.func.id
                owner = self.resolve(cls, method) if cls else None
                if owner is not None:
                    yield Site(node, owner, method, scope)


def _parse(path: Path) -> Module | None:
    try:
        return Module(ast.parse(path.read_bytes()))
    except (SyntaxError, ValueError, RecursionError):
        return None


def _str_methods(module: Module) -> set[str]:
    """The non-dunder `-> str` methods this file calls on a receiver it tells."""
    names = set()
    for site in module.sites():
        if site.method.startswith("__"):
            continue  # called by the language (str(), repr()), which no call site shows
        if _is_str(module.definition(site.cls, site.method).returns):
            names.add(site.method)
    return names


def _roots() -> list[tuple[Path, Path, int]]:
    """(directory to walk, the directory module names start from, files to take)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    roots = [(stdlib, stdlib, STDLIB_FILES)]
    for name in FRAMEWORKS:
        try:
            spec = importlib.util.find_spec(name)
        except ImportError:
            continue
        if spec is None or not spec.submodule_search_locations:
            continue
        package = Path(next(iter(spec.submodule_search_locations)))
        roots.append((package, package.parents[name.count(".")], PER_ROOT))
    return roots


def corpus() -> dict[Path, tuple[Path, set[str]]]:
    """Relative path -> (source file, the tool method names it contributes)."""
    chosen: dict[Path, tuple[Path, set[str]]] = {}
    for walk, base, limit in _roots():
        taken = 0
        for path in sorted(walk.rglob("*.py")):
            relative = path.relative_to(base)
            if taken == limit:
                break
            skip = {"site-packages", "test", "tests", "idlelib", "lib2to3", "__pycache__"}
            if skip & set(relative.parts) or relative in chosen:
                continue
            data = path.read_bytes()
            if b"-> str" not in data and b'-> "str"' not in data:
                continue
            module = _parse(path)
            names = _str_methods(module) if module else set()
            if names:
                chosen[relative] = (path, names)
                taken += 1
    return chosen


def _run(command: str, root: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [TOOLWIRE, command, "--format", "json", *args, "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-2000:]
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@dataclass
class Run:
    root: Path
    files: list[Path]
    methods: list[str]
    summary: dict[str, Any]
    check: dict[str, Any]
    again: dict[str, Any]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    root = tmp_path_factory.mktemp("real")
    chosen = corpus()
    assert len(chosen) >= 10, sorted(chosen)
    methods: set[str] = set()
    for relative, (source, names) in chosen.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        methods |= names
    # Packages, so that the files' imports of each other resolve as module names.
    for relative in chosen:
        for folder in relative.parents:
            init = root / folder / "__init__.py"
            if folder != Path(".") and not init.exists():
                init.write_text("")
    listed = ", ".join(json.dumps(name) for name in sorted(methods))
    (root / "pyproject.toml").write_text(f"[tool.toolwire]\ntool-methods = [{listed}]\n")
    summary = _run("migrate", root)
    assert not summary["errors"], summary["errors"]
    check = _run("check", root)
    again = _run("migrate", root, "--check")
    return Run(root, sorted(root / r for r in chosen), sorted(methods), summary, check, again)


def _statement(module: Module, node: ast.AST) -> ast.stmt:
    while not isinstance(node, ast.stmt):
        node = module.parents[node]
    return node


def _function(module: Module, node: ast.AST) -> Function | None:
    while node in module.parents:
        node = module.parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return node
    return None


def _passes_on(call: ast.Call) -> bool:
    """A call that may hand a value on: not a builtin, not a str method (`sep.join(r)`)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id not in BUILTINS
    return isinstance(func, ast.Attribute) and func.attr not in STR_METHODS


def _misuses(module: Module, value: ast.expr, scope: Scope, depth: int = 0) -> list[ast.AST]:
    """The uses of `value` (a ToolResult now) that hold for a str only."""
    parent = module.parents[value]
    if isinstance(parent, ast.Await) and depth == 0:
        value, parent = parent, module.parents[parent]
    if isinstance(parent, ast.Attribute) and parent.attr == "content":
        return []  # (a) rewritten
    if isinstance(parent, ast.Expr):
        return []  # discarded
    if isinstance(parent, ast.Return):
        function = _function(module, parent)
        returns = function.returns if function else None
        return [] if returns and "ToolResult" in ast.unparse(returns) else [parent]
    call = module.parents[parent] if isinstance(parent, ast.keyword) else parent
    if isinstance(call, ast.Call) and value is not call.func and _passes_on(call):
        return []  # passed on
    target = parent.targets[0] if isinstance(parent, ast.Assign) else None
    if len(getattr(parent, "targets", ())) != 1 or depth > 6:
        return [parent]
    if isinstance(target, ast.Name):
        # A name: each of its reads in the scope is a use.
        name = target.id
        reads: list[ast.expr] = [
            node
            for node in _own_nodes(scope)
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
        ]
    elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        # Stored in a local dict or list: each read of an item is a use; a view of all
        # items (`.values()`, `.items()`, iterating a list) is a use this cannot follow.
        name = target.value.id
        reads = []
        for node in _own_nodes(scope):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            holder = module.parents[node]
            if isinstance(holder, ast.Subscript) and isinstance(holder.ctx, ast.Load):
                reads.append(holder)
            elif isinstance(holder, ast.Attribute) and holder.attr in ("get", "pop"):
                reads.append(module.parents[holder])  # type: ignore[arg-type]
            elif isinstance(holder, ast.Attribute) and holder.attr in ("values", "items"):
                return [holder]
            elif isinstance(holder, ast.For | ast.comprehension) and holder.iter is node:
                return [holder]
    else:
        return [parent]
    return [bad for read in reads for bad in _misuses(module, read, scope, depth + 1)]


def _listed(run: Run) -> dict[str, set[int]]:
    lines: dict[str, set[int]] = {}
    summary = run.summary
    for item in [*summary["left_for_review"], *summary["left_for_a_person"], *summary["skipped"]]:
        lines.setdefault(item["path"], set()).add(item["line"])
    for finding in run.check["findings"]:
        if finding["code"][:3] in ("TW1", "TW2", "TW3"):
            lines.setdefault(finding["path"], set()).update(
                range(finding["line"], finding["end_line"] + 1)
            )
    return lines


def _covered(module: Module, node: ast.AST, lines: set[int]) -> bool:
    statement = _statement(module, node)
    end = statement.end_lineno or statement.lineno
    return any(statement.lineno <= line <= end for line in lines)


@dataclass(frozen=True)
class Failure:
    path: str
    line: int
    method: str  # Class.method
    use: str  # the statement, first line

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.method}() used as a str: {self.use}"


def failures(run: Run) -> list[Failure]:
    migrated = {(e["path"], e["class"], e["method"]) for e in run.summary["migrated"]}
    listed = _listed(run)
    found = []
    for path in sorted(run.root.rglob("*.py")):
        relative = path.relative_to(run.root).as_posix()
        module = _parse(path)
        assert module is not None, f"{relative} no longer parses"
        lines = listed.get(relative, set())
        for site in module.sites():
            if (relative, site.cls, site.method) not in migrated:
                continue  # (d) not migrated: skipped, or not a `-> str` method
            if _covered(module, site.call, lines):
                continue  # (b) the call's statement is listed
            for use in _misuses(module, site.call, site.scope):
                if not _covered(module, use, lines):
                    statement = _statement(module, use)
                    text = ast.unparse(statement).splitlines()[0][:160]
                    method = f"{site.cls}.{site.method}"
                    found.append(Failure(relative, statement.lineno, method, text))
    return found


def test_every_use_of_a_migrated_call_is_kept_or_listed(run: Run) -> None:
    assert run.summary["methods_migrated"] > 0
    unlisted = [str(f) for f in failures(run)]
    assert not unlisted, "\n".join(unlisted)


def test_a_sum_of_two_migrated_calls_is_listed(run: Run) -> None:
    # `restorer = _StreamedArgsRestorer()` in a module function, then `+` of two of its
    # migrated calls: reported by check (TW202) and so listed by migrate.
    path = "pydantic_ai/_special_tokens.py"
    assert (run.root / path).exists(), f"{path} is no longer in the corpus"
    use = "return restorer.feed(args) + restorer.flush()"
    lines = (run.root / path).read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.strip() == use)
    reported = {(f["path"], f["line"], f["code"]) for f in run.check["findings"]}
    assert (path, at, "TW202") in reported
    listed = {(f["path"], f["line"]) for f in run.summary["left_for_review"]}
    assert (path, at) in listed


def test_migrated_files_compile(run: Run) -> None:
    for path in sorted(run.root.rglob("*.py")):
        compile(path.read_bytes(), str(path), "exec")


def test_a_second_run_changes_nothing(run: Run) -> None:
    assert run.again["files_changed"] == 0, run.again["changed"]
