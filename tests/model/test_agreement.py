"""Every entry of the egress model, through both layers: they must agree.

For each stringifier, string method, formatter, serialiser, serialiser attribute,
printer, logging function, logger method and sink of the model (and a configured wire
sink and egress sink, named by a re-export), a flagged module and its clean twin are
generated. The syntax layer runs once, as the real `toolwire check`, over all of them;
mypy runs once, with the plugin, over all of them. Both must report the expected code on
the flagged line and nothing on the clean twin, except where a rule file documents a
layer limit (`LIMITS`).
"""

from __future__ import annotations

import importlib
import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from frontend_helpers import toolwire_command
from mypy_harness import Run, make_project, run_mypy

from toolwire.lint.config import load_config
from toolwire.lint.model import load_model

CORE = load_model()

# Sinks configured for the test, named by the package (`gen.Message`) that re-exports
# their definitions (`gen.sinks.Message`).
SINKS = """
class Message:
    def __init__(self, content: object, call_id: str = "") -> None:
        self.content = content


def prompt(text: object) -> None:
    pass
"""
TABLE = {
    "wire-sinks": ["gen.Message:0=content"],
    "egress-sinks": ["gen.prompt:text"],
    "html-sinks": list(CORE.html_sinks),
}


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    imports: str
    flagged: str
    clean: str

    def source(self, statement: str) -> str:
        return (
            "from __future__ import annotations\n"
            "import logging\n"
            f"{self.imports}\n"
            "from toolwire import ToolResult\n"
            "\n"
            "\n"
            "def run(result: ToolResult, text: str, log: object) -> object:\n"
            f"    return {statement}\n"
        )

    LINE = 8


def _resolve(dotted: str) -> object:
    """The object a dotted name names: its longest importable prefix, then attributes
    (`loguru.logger.info` is an attribute of the module-level `loguru.logger`)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ModuleNotFoundError(dotted)


def _call(dotted: str) -> tuple[str, str]:
    """(import line, callable expression) for a dotted function name."""
    module, _, name = dotted.rpartition(".")
    if module == "builtins":
        return "", name
    return f"import {module}", dotted


# What a factory must be given (a `wrap_logger` wraps a logger, a `patch` takes a patcher).
_FACTORY_ARGUMENTS = {"structlog.wrap_logger": "None", "loguru.logger.patch": "lambda record: None"}


def _cases() -> Iterator[Case]:
    for name in CORE.stringifiers:
        imports, call = _call(name)
        yield Case(
            f"stringifier-{name}", "TW201", imports, f"{call}(result)", f"{call}(result.content)"
        )
    for method in CORE.string_methods:
        yield Case(
            f"string-method-{method}",
            "TW201",
            "",
            f"result.{method}()",
            f"result.content.{method}()",
        )
    for name in CORE.formatters:
        method = name.rpartition(".")[2]
        flagged, clean = {
            "__mod__": ("text % (result,)", "text % (result.content,)"),
            "__add__": ("text + result", "text + result.content"),
            "format_map": (
                'text.format_map({"r": result})',
                'text.format_map({"r": result.content})',
            ),
            "join": ("text.join([result])", "text.join([result.content])"),
        }.get(method, (f"text.{method}(result)", f"text.{method}(result.content)"))
        yield Case(f"formatter-{method}", "TW202", "", flagged, clean)
    for name in CORE.serialisers:
        imports, call = _call(name)
        yield Case(
            f"serialiser-{name}", "TW203", imports, f"{call}(result)", f"{call}(result.is_error)"
        )
    for attribute in CORE.serialiser_attributes:
        yield Case(
            f"serialiser-attribute-{attribute}",
            "TW203",
            "",
            f"result.{attribute}",
            f"result.content.{attribute}",
        )
    for name in CORE.printers:
        imports, call = _call(name)
        yield Case(
            f"printer-{name}", "TW204", imports, f"{call}(result)", f"{call}(result.content)"
        )
    for name in CORE.logging_functions:
        module = name.rpartition(".")[0]
        try:
            _resolve(name)
        except AttributeError:
            continue  # `loguru.logger.warn` does not exist: nothing to agree on
        args = "10, " if name.endswith(".log") else ""
        yield Case(
            f"logging-{name}",
            "TW204",
            "" if module == "logging" else f"import {module.partition('.')[0]}",
            f'{name}({args}"%s", result)',
            f'{name}({args}"%s", result.content)',
        )
    # structlog's and loguru's loggers, from each of their factories
    for factory in CORE.logger_factories:
        if factory.startswith("logging."):
            continue
        given = _FACTORY_ARGUMENTS.get(factory, "")
        module = factory.rpartition(".")[0]
        imports = f"import {'loguru' if module == 'loguru.logger' else module}"
        yield Case(
            f"logger-factory-{factory}",
            "TW204",
            imports,
            f'{factory}({given}).info("%s", result=result)',
            f'{factory}({given}).info("%s", result=result.content)',
        )
    for factory in ("logging.getLogger",):
        for cls in (c for c in CORE.logger_classes if c.startswith("logging.")):
            for level in CORE.log_methods:
                if not hasattr(_resolve(cls), level):
                    continue  # `LoggerAdapter.fatal` does not exist: nothing to agree on
                args = "10, " if level == "log" else ""
                logger = f"{factory}()" if cls == "logging.Logger" else f"{cls}({factory}())"
                yield Case(
                    f"logger-{cls}.{level}",
                    "TW204",
                    "",
                    f'{logger}.{level}({args}"%s", result)',
                    f'{logger}.{level}({args}"%s", result.content)',
                )
    for spec in CORE.html_sinks:
        imports, call = _call(spec.partition(":")[0])
        yield Case(
            f"html-sink-{spec}",
            "TW402",
            imports,
            f"{call}(str(result.artifacts))",
            f"{call}(result.content)",
        )
    # configured sinks: named by the re-export, imported either way
    for where in ("gen", "gen.sinks"):
        imports = f"from {where} import Message, prompt"
        yield Case(
            f"wire-sink-whole-{where}",
            "TW301",
            imports,
            "Message(result)",
            "Message(result.content)",
        )
        yield Case(
            f"wire-sink-keyword-{where}",
            "TW301",
            imports,
            "Message(content=result, call_id='c')",
            "Message(content=result.content, call_id='c')",
        )
        yield Case(
            f"wire-sink-artifacts-{where}",
            "TW302",
            imports,
            "Message(result.artifacts)",
            "Message(result.content)",
        )
        yield Case(
            f"egress-sink-whole-{where}", "TW201", imports, "prompt(result)", 'prompt("hello")'
        )
        yield Case(
            f"wire-sink-derived-{where}",
            "TW301",
            imports,
            'Message(f"result: {result}")',
            'Message("hello")',
        )
        yield Case(
            f"egress-sink-artifacts-{where}",
            "TW302",
            imports,
            "prompt(text=str(result.artifacts))",
            'prompt(text=f"{result.content} hello")',
        )


CASES = list(_cases())

# (case id prefix, layer) pairs a rule file documents as outside that layer.
LIMITS: dict[str, str] = {
    # rules/TW203.md: typeshed's overloads reject a non-dataclass, so mypy reports its
    # own arg-type error and calls no plugin hook.
    "serialiser-dataclasses.asdict": "mypy",
    "serialiser-dataclasses.astuple": "mypy",
    # rules/TW204.md: these factories are typed `Any`, so mypy knows no logger there.
    "logger-factory-structlog.get_logger": "mypy",
    "logger-factory-structlog.getLogger": "mypy",
    "logger-factory-structlog.wrap_logger": "mypy",
}


def _module(case: Case, kind: str) -> str:
    safe = "".join(c if c.isalnum() else "_" for c in case.id)
    return f"cases/{safe}_{kind}.py"


@dataclass
class Results:
    syntax: dict[str, set[tuple[int, str]]]
    mypy: dict[str, set[tuple[int, str]]]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    root = tmp_path_factory.mktemp("agreement")
    modules = {"gen/sinks.py": SINKS, "gen/__init__.py": "from gen.sinks import Message, prompt\n"}
    for case in CASES:
        modules[_module(case, "flagged")] = case.source(case.flagged)
        modules[_module(case, "clean")] = case.source(case.clean)
    config = make_project(root, modules, table=TABLE)
    load_config(root / "pyproject.toml")  # the table itself loads
    done = subprocess.run(
        [*toolwire_command(), "check", "--format", "json", "--exit-zero", "cases"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    syntax: dict[str, set[tuple[int, str]]] = {}
    for finding in json.loads(done.stdout)["findings"]:
        path = finding["path"].replace("\\", "/")
        syntax.setdefault(path, set()).add((finding["line"], finding["code"]))
    run: Run = run_mypy(root, ["cases"], config=config)
    assert not run.internal_errors(), run.stdout + run.stderr
    mypy = {path: set(found) for path, found in run.toolwire_by_file().items()}
    return Results(syntax, mypy)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_both_layers_flag_each_entry(case: Case, results: Results) -> None:
    flagged = _module(case, "flagged")
    for layer, found in (("syntax", results.syntax), ("mypy", results.mypy)):
        if LIMITS.get(case.id) == layer:
            continue
        assert (Case.LINE, case.code) in found.get(flagged, set()), (
            f"{layer} layer does not flag {case.flagged!r} with {case.code}: "
            f"{sorted(found.get(flagged, set()))}"
        )


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_neither_layer_flags_the_clean_twin(case: Case, results: Results) -> None:
    clean = _module(case, "clean")
    for layer, found in (("syntax", results.syntax), ("mypy", results.mypy)):
        assert not found.get(clean), f"{layer} flags {case.clean!r}: {sorted(found[clean])}"
