"""The one list of frameworks: what each framework preset declares holds everywhere else.

Each framework preset names its modules, its extra and its adapter module
(`toolwire.lint.model.frameworks()`). Its adapter references resolve by reading the adapter's
source with `ast` (no framework is imported), its extra is in pyproject.toml and in the
`frameworks` extra, and docs/frameworks/index.md has its row.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

import toolwire
from toolwire.lint.model import Framework, frameworks, preset, preset_names

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(toolwire.__file__).resolve().parent
INDEX = REPO / "docs" / "frameworks" / "index.md"
FRAMEWORKS = frameworks()
IDS = [f.preset for f in FRAMEWORKS]
SHAPES = ("class-tools", "function-tools")
# Adapter names follow one pattern (docs/frameworks/index.md, "Adapter names").
_PATTERN = re.compile(r"@?(?P<name>(?:result_tool|Result\w*|ToolResult\w+|to_\w+|from_\w+))\b")


def _source(module: str) -> Path | None:
    """The file of a `toolwire.*` module, found as Python would, without importing it."""
    parts = module.split(".")
    if parts[0] != "toolwire":
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def _defined(module: str) -> frozenset[str]:
    """The names a module binds at its top level (classes, functions, assignments, imports)."""
    path = _source(module)
    if path is None:
        return frozenset()
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names)
    return frozenset(names)


def resolves(dotted: str) -> bool:
    module, _, name = dotted.rpartition(".")
    return _source(module) is not None and name in _defined(module)


def _adapters(framework: Framework) -> list[str]:
    data = preset(framework.preset)
    return [table["adapter"] for kind in SHAPES for table in data.get(kind, [])]


def test_every_preset_with_tool_shapes_is_in_the_list() -> None:
    with_shapes = [n for n in preset_names() if any(preset(n).get(k) for k in SHAPES)]
    assert set(with_shapes) <= set(IDS)
    assert len(IDS) == len(set(IDS)) >= 8


def test_resolving_finds_a_dangling_adapter_reference() -> None:
    assert resolves("toolwire.adapters.crewai.ResultTool")
    assert not resolves("toolwire.adapters.acme.ResultTool")
    assert not resolves("toolwire.adapters.crewai.NoSuchTool")
    assert not resolves("acme.adapters.ResultTool")


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=IDS)
def test_every_adapter_reference_resolves_without_the_framework(framework: Framework) -> None:
    before = set(sys.modules)
    named = _adapters(framework)
    if framework.adapter or named:
        assert _source(framework.adapter) is not None, framework.adapter
    for dotted in named:
        assert dotted.rpartition(".")[0] == framework.adapter, dotted
        assert resolves(dotted), f"{framework.preset}: {dotted} is not defined"
    assert not {m.partition(".")[0] for m in set(sys.modules) - before} & set(framework.modules)


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=IDS)
def test_every_adapter_follows_the_naming_pattern(framework: Framework) -> None:
    data, defined = preset(framework.preset), _defined(framework.adapter)
    if any(t.get("wire") != "factory" for t in data.get("function-tools", [])):
        assert "result_tool" in defined, framework.adapter
    if any(not t.get("methods-from") for t in data.get("class-tools", [])):
        assert "ResultTool" in defined, framework.adapter


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=IDS)
def test_the_declared_modules_hold_the_tool_shapes(framework: Framework) -> None:
    data = preset(framework.preset)
    keys = ("bases", "decorators", "instances", "factories")
    names = {
        name
        for kind in SHAPES
        for table in data.get(kind, [])
        for key in keys
        for name in table.get(key, [])
    }
    # `google.adk.Agent` is in `google.adk`, not merely in a package named `google`.
    outside = {n for n in names if not any(n.startswith(f"{m}.") for m in framework.modules)}
    assert not outside, outside


def _extras() -> dict[str, list[str]]:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras: dict[str, list[str]] = data["project"]["optional-dependencies"]
    return extras


def _self_extras(requirements: list[str]) -> set[str]:
    """The extras of toolwire itself that requirements pull in (`toolwire[a,b]`)."""
    found: set[str] = set()
    for requirement in requirements:
        match = re.fullmatch(r"toolwire\[(?P<names>[\w,\s-]+)\]", requirement.strip())
        if match:
            found.update(n.strip() for n in match["names"].split(","))
    return found


# Extras that cannot share an environment with the others (pyproject.toml says why), and the
# module that builds the venv their tests run in instead.
OWN_ENVIRONMENT = {"google-adk": REPO / "tests" / "adapters" / "adk_env.py"}


def test_every_extra_exists_and_is_in_the_frameworks_extra() -> None:
    extras = _extras()
    declared = {f.extra for f in FRAMEWORKS}
    assert declared <= extras.keys(), declared - extras.keys()
    assert _self_extras(extras["frameworks"]) == declared - OWN_ENVIRONMENT.keys()
    assert "frameworks" in _self_extras(extras["test"])
    for extra, builder in OWN_ENVIRONMENT.items():
        assert extra in declared and extra not in _self_extras(extras["test"])
        pin = re.search(r'^PIN = "(?P<pin>[^"]+)"', builder.read_text(encoding="utf-8"), re.M)
        assert pin, builder
        (requirement,) = extras[extra]
        name, _, low = requirement.partition(">=")
        assert pin["pin"].startswith(f"{name}=="), (pin["pin"], requirement)
        # the tests run on a version the extra allows
        assert tuple(map(int, pin["pin"].partition("==")[2].split("."))) >= tuple(
            map(int, low.split("."))
        )


def _tables(text: str) -> list[list[list[str]]]:
    """The page's tables whose first header cell is "framework", as rows of cells."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            rows = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows is None:
            rows = []
            if cells[0] == "framework":
                tables.append(rows)
            continue
        if not set(cells[0]) <= set("-:"):
            rows.append(cells)
    return tables


def _linked(cell: str) -> str:
    match = re.search(r"\]\((?P<page>[\w-]+)\.md\)", cell)
    assert match, f"docs/frameworks/index.md: {cell!r} links no framework page"
    return match["page"]


def test_the_index_has_one_row_per_framework_in_each_table() -> None:
    tables = _tables(INDEX.read_text(encoding="utf-8"))
    assert len(tables) >= 2
    for rows in tables:
        assert sorted(_linked(row[0]) for row in rows) == sorted(IDS)
    for framework in FRAMEWORKS:
        assert (INDEX.parent / f"{framework.preset}.md").is_file(), framework.preset


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=IDS)
def test_the_index_row_names_the_preset_extra_and_existing_adapter_names(
    framework: Framework,
) -> None:
    rows = _tables(INDEX.read_text(encoding="utf-8"))[0]
    row = next(r for r in rows if _linked(r[0]) == framework.preset)
    assert row[1] == f"`{framework.preset}`"
    assert row[2] == f"`toolwire[{framework.extra}]`"
    if not framework.adapter:
        return
    names = [
        m["name"] for code in re.findall(r"`([^`]+)`", row[3]) for m in [_PATTERN.match(code)] if m
    ]
    assert names, row[3]
    for name in names:
        assert resolves(f"{framework.adapter}.{name}"), (
            f"index.md names {name} of {framework.adapter}"
        )


@pytest.mark.parametrize("framework", FRAMEWORKS, ids=IDS)
def test_the_page_names_every_wire_sink(framework: Framework) -> None:
    page = (INDEX.parent / f"{framework.preset}.md").read_text(encoding="utf-8")
    for spec in preset(framework.preset).get("wire-sinks", []):
        assert f"`{spec}`" in page, f"docs/frameworks/{framework.preset}.md: {spec}"


def _declaring(**keys: object) -> str:
    lines = [f"{key.replace('_', '-')} = {value!r}" for key, value in keys.items()]
    return "\n".join(lines).replace("'", '"') + "\n"


@pytest.mark.parametrize(
    ("declaration", "complaint"),
    [
        (_declaring(modules=["acme"]), "extra"),
        (_declaring(extra="acme"), "modules"),
        (_declaring(modules=["acme tools"], extra="acme"), "modules: expected module names"),
        (_declaring(modules=[], extra="acme"), "modules: expected module names"),
        (_declaring(modules=["acme"], extra=""), "extra: expected"),
        (_declaring(modules=["acme"], extra="acme", adapter_module="a b"), "adapter-module"),
        (
            _declaring(modules=["acme"], extra="acme")
            + '[[function-tools]]\ndecorators = ["acme.tool"]\n'
            + 'adapter = "toolwire.adapters.acme.t"\n',
            "adapter-module",
        ),
        (
            _declaring(modules=["acme"], extra="acme", adapter_module="toolwire.adapters.acme")
            + '[[function-tools]]\ndecorators = ["acme.tool"]\n'
            + 'adapter = "toolwire.adapters.x.t"\n',
            "is not a name in toolwire.adapters.acme",
        ),
    ],
)
def test_a_malformed_framework_declaration_stops_the_model(
    declaration: str, complaint: str, tmp_path: Path
) -> None:
    # A preset that declares its framework badly is a ModelError naming its file and key.
    from toolwire.lint import model

    data = tomllib.loads(declaration)
    with pytest.raises(model.ModelError, match=re.escape(complaint)) as raised:
        model._framework("toolwire/lint/presets/acme.toml", "acme", data)
    assert str(raised.value).startswith("toolwire/lint/presets/acme.toml: ")
