"""Leaks that only types across modules reveal; one mypy run per parser for all cases.

Each case is a package of a few modules; a line that must be flagged says so with
`# expect: TWnnn` (as in rules/), and every other line must have no toolwire error.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest
from mypy_harness import Run, expected_in, make_project, run_mypy

CASES: dict[str, dict[str, str]] = {
    "leak_across_modules": {
        "tools.py": """
            from toolwire import ToolResult

            def run_tool(query: str) -> ToolResult:
                return ToolResult.text(f"found {query}")
        """,
        "loop.py": """
            from app.chat import ChatMessage

            from .tools import run_tool

            def reply(call_id: str) -> ChatMessage:
                text = f"Tool execution result: {run_tool('x')}"  # expect: TW202
                return ChatMessage.tool_result(call_id, f"{run_tool('x')}")  # expect: TW202, TW301
        """,
    },
    "generic_container": {
        "batch.py": """
            from toolwire import ToolResult

            def batch() -> list[ToolResult]:
                return [ToolResult.text("a"), ToolResult.text("b")]

            def by_name() -> dict[str, list[ToolResult]]:
                return {"all": batch()}
        """,
        "use.py": """
            from app.chat import ChatMessage

            from .batch import batch, by_name

            def send() -> list[ChatMessage]:
                items = batch()
                first = items[0]
                print(by_name())  # expect: TW204
                return [
                    ChatMessage.user(f"{items[0]}"),  # expect: TW202, TW301
                    ChatMessage.user(first.content),
                    ChatMessage.tool_result("id", by_name()["all"][0]),  # expect: TW301
                ]
        """,
    },
    "inherited_attribute": {
        "base.py": """
            from toolwire import ToolResult

            class Step:
                last: ToolResult
        """,
        "child.py": """
            from .base import Step

            class SearchStep(Step):
                pass
        """,
        "use.py": """
            from app.chat import ChatMessage

            from .child import SearchStep

            def show(step: SearchStep) -> list[object]:
                return [
                    str(step.last),  # expect: TW201
                    ChatMessage.tool_result("id", step.last),  # expect: TW301
                    ChatMessage.tool_result("id", step.last.content),
                ]
        """,
    },
    "returned_optional": {
        "cache.py": """
            from typing import Optional

            from toolwire import ToolResult

            def cached(key: str) -> Optional[ToolResult]:
                return None
        """,
        "use.py": """
            from app.chat import ChatMessage

            from .cache import cached

            def show(key: str) -> list[object]:
                hit = cached(key)
                out: list[object] = [repr(cached(key))]  # expect: TW201
                if hit is not None:
                    out.append(ChatMessage.tool_result(key, hit.content))
                    out.append("{}".format(hit))  # expect: TW202
                return out
        """,
    },
    "typevar_bound": {
        "generic.py": """
            from collections.abc import Sequence
            from typing import TypeVar

            from toolwire import ToolResult

            R = TypeVar("R", bound=ToolResult)

            def first(results: Sequence[R]) -> R:
                return results[0]
        """,
        "use.py": """
            import logging

            from toolwire import ToolResult

            from .generic import R, first

            def trace(result: R) -> R:
                logging.info("%s", result)  # expect: TW204
                return result

            def show(results: list[ToolResult]) -> str:
                return str(first(results))  # expect: TW201
        """,
    },
    "tool_interface": {
        "interface.py": """
            from abc import ABC, abstractmethod
            from typing import Protocol

            from toolwire import ToolResult

            class BaseTool(ABC):
                @abstractmethod
                def execute(self, arguments: dict[str, str]) -> ToolResult: ...

            class ToolLike(Protocol):
                async def execute(self, arguments: dict[str, str]) -> ToolResult: ...
        """,
        "middle.py": """
            from .interface import BaseTool

            class Cached(BaseTool):
                pass
        """,
        "impl.py": """
            from .interface import ToolLike
            from .middle import Cached

            class Old(Cached):
                def execute(self, arguments: dict[str, str]) -> str:  # expect: TW101
                    return "legacy"

            class Declared(ToolLike):
                async def execute(self, arguments: dict[str, str]) -> str:  # expect: TW101
                    return "legacy"

            class Structural:
                # implements ToolLike only structurally: no base, nothing for mypy to compare
                async def execute(self, arguments: dict[str, str]) -> str:
                    return "legacy"
        """,
    },
    "typeddict_value": {
        "shapes.py": """
            from typing import TypedDict

            from toolwire import ToolResult

            class Turn(TypedDict):
                call_id: str
                result: ToolResult
        """,
        "use.py": """
            import json

            from app.chat import ChatMessage

            from .shapes import Turn

            def send(turn: Turn) -> list[object]:
                return [
                    json.dumps(turn),  # expect: TW203
                    f"turn: {turn}",  # expect: TW202
                    ChatMessage.tool_result(turn["call_id"], turn["result"].content),
                ]
        """,
    },
    "dataclass_field": {
        "record.py": """
            from dataclasses import dataclass

            from toolwire import ToolResult

            @dataclass
            class Record:
                call_id: str
                result: ToolResult

            @dataclass
            class Nested:
                records: list[Record]

            @dataclass
            class Summary:
                result: ToolResult

                def __str__(self) -> str:
                    return self.result.content
        """,
        "use.py": """
            import dataclasses
            import logging

            from .record import Nested, Record, Summary

            def show(record: Record, nested: Nested, summary: Summary) -> list[object]:
                print(record)  # expect: TW204
                logging.debug("%r", nested)  # expect: TW204
                return [
                    str(record),  # expect: TW201
                    dataclasses.astuple(nested),  # expect: TW203
                    str(summary),
                    str(record.call_id),
                ]
        """,
    },
    "logger_method": {
        "logs.py": """
            import logging

            log = logging.getLogger("tools")
            adapter = logging.LoggerAdapter(log, {"run": "1"})
        """,
        "use.py": """
            from toolwire import ToolResult

            from .logs import adapter, log

            def trace(result: ToolResult) -> None:
                log.warning("result: %s", result)  # expect: TW204
                log.exception("failed: %s", [result])  # expect: TW204
                adapter.info("%s", result)  # expect: TW204
                log.info("result: %s", result.content)
        """,
    },
    "json_dict_of_results": {
        "collect.py": """
            from toolwire import ToolResult

            def collect() -> dict[str, ToolResult]:
                return {"a": ToolResult.text("a")}
        """,
        "use.py": """
            import json
            from typing import IO

            from .collect import collect

            def dump(fp: IO[str]) -> str:
                json.dump({"results": collect()}, fp)  # expect: TW203
                json.dumps({k: v.to_flowdrop() for k, v in collect().items()})
                return json.dumps(collect())  # expect: TW203
        """,
    },
    "artifacts_across_modules": {
        "extract.py": """
            from toolwire import ToolArtifact, ToolResult

            def tables(result: ToolResult) -> tuple[ToolArtifact, ...]:
                return result.artifacts
        """,
        "use.py": """
            from app.chat import ChatMessage
            from app.state import SuspendedRunState
            from toolwire import ToolResult

            from .extract import tables

            def suspend(result: ToolResult) -> list[object]:
                return [
                    SuspendedRunState(payload=tables(result)),  # expect: TW401
                    SuspendedRunState([result]),  # expect: TW401
                    ChatMessage.user(tables(result)[0].label),  # expect: TW302
                    SuspendedRunState(payload={"content": result.content}),
                ]
        """,
    },
    "result_subclass_and_construction": {
        "results.py": """
            from toolwire import ToolResult

            class Friendly(ToolResult):  # expect: TW105
                pass
        """,
        "use.py": """
            from toolwire import ToolArtifact
            from toolwire import ToolResult as TR

            def build(table: ToolArtifact) -> list[TR]:
                return [
                    TR("direct"),  # expect: TW102
                    TR.error("failed", table),  # expect: TW103
                    TR.text("ok", table),
                    TR.error("failed"),
                ]
        """,
    },
    "clean_program": {
        "tools.py": """
            from app.tools import Tool
            from toolwire import ToolArtifact, ToolResult

            class Search(Tool):
                def execute(self, arguments: dict[str, str]) -> ToolResult:
                    rows = [[arguments.get("q", "")]]
                    return ToolResult.text("1 row", ToolArtifact.table("rows", ["q"], rows))
        """,
        "loop.py": """
            import json
            import logging

            from app.chat import ChatMessage
            from app.state import SuspendedRunState
            from app.tools import Tool
            from toolwire import ToolResult

            log = logging.getLogger(__name__)

            def turn(tool: Tool, call_id: str, arguments: dict[str, str]) -> list[object]:
                result: ToolResult = tool.execute(arguments)
                text = result.content
                log.info("%s: %s, %d artifacts", call_id, result.is_error, len(result.artifacts))
                print(f"{call_id}: {result.content}")
                audit = json.dumps(result.audit_record())
                return [
                    ChatMessage.tool_result(call_id, result.content),
                    ChatMessage.tool_result(call_id, content=text),
                    ChatMessage.user(tool.execute({}).content),
                    SuspendedRunState([text], payload={"content": result.content}),
                    json.dumps(result.to_flowdrop()),
                    audit,
                    repr(result.is_error),
                ]
        """,
    },
}
PARSERS = {"native": "--native-parser", "legacy": "--no-native-parser"}


def case_files(case: str) -> dict[str, str]:
    return {
        f"{case}/{name}": textwrap.dedent(source).lstrip("\n")
        for name, source in CASES[case].items()
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> dict[str, Run]:
    """Parser -> one mypy run over every case."""
    modules = {path: text for case in CASES for path, text in case_files(case).items()}
    out = {}
    for parser, flag in PARSERS.items():
        root = tmp_path_factory.mktemp(f"multi-{parser}")
        config = make_project(root, modules)
        result = run_mypy(root, sorted(CASES), config=config, cache_dir=shared_cache, args=[flag])
        assert not result.internal_errors(), result.stdout + result.stderr
        out[parser] = result
    return out


def test_there_are_enough_cases() -> None:
    leaky = [c for c in CASES if not c.startswith("clean")]
    assert len(leaky) >= 10
    for case in leaky:
        assert any(expected_in(text) for text in case_files(case).values()), case


@pytest.mark.parametrize("parser", sorted(PARSERS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_case(case: str, parser: str, runs: dict[str, Run]) -> None:
    run = runs[parser]
    for path, text in case_files(case).items():
        got = run.toolwire(path)
        assert got == Counter(expected_in(text)), f"{path}\n{text}\n" + "\n".join(
            m for m in run.stdout.splitlines() if path in m
        )


def test_parsers_agree(runs: dict[str, Run]) -> None:
    """The native and the legacy parser give the same toolwire errors."""
    assert runs["native"].toolwire() == runs["legacy"].toolwire()
