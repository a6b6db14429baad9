"""The shape of `src/toolwire`: no import cycle, no arrow from a lower layer up, no room too big.

Read by `ast` (nothing is imported), so an import inside a function or under
`TYPE_CHECKING` counts as much as one at the top: each is a dependency of the design.
ARCHITECTURE.md draws these layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

# Low to high. A module may import its own layer and the layers below it, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the runtime: what migrated code and the framework seams import
    (
        "toolwire",
        "toolwire.result",
        "toolwire.bounds",
        "toolwire.adapters",
        "toolwire.guard",
        "toolwire.testing",
    ),
    # the linter's data: the egress model, config, rule catalog, findings, file I/O
    (
        "toolwire.lint",
        "toolwire.lint.model",
        "toolwire.lint.config",
        "toolwire.lint.catalog",
        "toolwire.lint.messages",
        "toolwire.lint.findings",
        "toolwire.lint.files",
        "toolwire.lint.signatures",
        "toolwire.lint.prefilter",
        "toolwire.lint.writes",
        "toolwire.lint.suppressions",
        "toolwire.lint._discovery",
    ),
    ("toolwire.lint.analysis",),
    ("toolwire.lint.checks",),
    ("toolwire.lint.engine", "toolwire.lint.pool", "toolwire.lint.cache"),
    ("toolwire.lint.codemods",),
    # the front-ends
    (
        "toolwire.lint.commands",
        "toolwire.lint.reporters",
        "toolwire.lint.cli",
        "toolwire.lint.flake8_plugin",
        "toolwire.lint.mypy",
        "toolwire.mypy",
        "toolwire.lint.docs",
    ),
)


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SRC / "toolwire").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that `name` imports (the deepest one each import names)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def layer(name: str) -> int:
    best = (-1, -1)  # (prefix length, layer): the longest prefix decides
    for number, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or name.startswith(prefix + "."):
                best = max(best, (len(prefix), number))
    assert best[1] >= 0, f"{name} is in no layer: add it to LAYERS (and ARCHITECTURE.md)"
    return best[1]


GRAPH = {name: imports(name, path, modules()) for name, path in modules().items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_every_module_is_in_a_layer() -> None:
    for name in GRAPH:
        layer(name)


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_no_arrow_from_a_lower_layer_up() -> None:
    upward = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        for target in targets
        if layer(target) > layer(name)
    )
    assert upward == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(
    graph: dict[str, set[str]], expected: list[list[str]]
) -> None:
    assert cycles(graph) == expected


MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80


def test_no_module_over_800_lines_and_no_function_over_80() -> None:
    too_long = []
    for name, path in modules().items():
        source = path.read_bytes()
        lines = source.count(b"\n")
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}.{node.name}: {length} lines")
    assert too_long == []


def test_the_top_of_the_package_is_the_runtime_and_one_linter_package() -> None:
    # What migrated code imports sits at the top; everything that reads code is in `lint`
    # (`toolwire.mypy` keeps the plugin's documented name and only re-exports it).
    top = {p.name for p in (SRC / "toolwire").iterdir() if not p.name.startswith("__pycache__")}
    runtime = {"__init__.py", "py.typed", "result.py", "bounds.py", "adapters", "guard", "testing"}
    assert top == runtime | {"lint", "mypy.py"}
    shim = ast.parse((SRC / "toolwire" / "mypy.py").read_bytes())
    assert {type(node).__name__ for node in shim.body} == {"Expr", "ImportFrom", "Assign"}
