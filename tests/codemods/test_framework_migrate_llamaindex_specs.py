"""LlamaIndex tool specs (`BaseToolSpec` subclasses), migrated with the preset alone.

Five real tool specs from PyPI (llama-index-tools-wikipedia, -yahoo-finance, -requests,
-code-interpreter, -arxiv; MIT, vendored unchanged in tests/fixtures/llamaindex_tools)
are copied twice into a scratch project whose only setting is `presets = ["llamaindex"]`;
one copy is migrated by the real `toolwire migrate`. In a subprocess per copy, a
`FunctionAgent` driven by LlamaIndex's mock LLM calls every tool of every spec with the
same arguments; the third-party clients the tools call (`wikipedia`, `yfinance`, `pandas`,
`requests`, `arxiv`) are stubbed so no network is needed, and the tools' own code runs.
The model must be sent the same text and the same tool schemas, errors must stay errors,
and the output must parse and be a fixed point.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("llama_index.core")

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "llamaindex_tools"
TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
SPECS = ["wikipedia", "yahoo_finance", "requests", "code_interpreter", "arxiv"]

DRIVER = r"""
import asyncio, json, sys, types

tree = sys.argv[1]
sys.path.insert(0, tree)

# -- the third-party clients, stubbed: what the tools' own code calls --------------------
wikipedia = types.ModuleType("wikipedia")
class PageError(Exception):
    pass
PAGES = {"Ada Lovelace": "Ada Lovelace was a mathematician."}
def page(title, auto_suggest=True):
    if title not in PAGES:
        raise PageError(title)
    return types.SimpleNamespace(content=PAGES[title])
wikipedia.PageError = PageError
wikipedia.page = page
wikipedia.search = lambda q: [t for t in PAGES if q.lower() in t.lower()]
wikipedia.set_lang = lambda lang: None
sys.modules["wikipedia"] = wikipedia

pandas = types.ModuleType("pandas")
class DataFrame:
    def __init__(self, data):
        self.data = data
    def to_string(self):
        return "\n".join(f"{k}  {v}" for k, v in sorted(self.data.items()))
pandas.DataFrame = DataFrame
sys.modules["pandas"] = pandas

yfinance = types.ModuleType("yfinance")
class Ticker:
    def __init__(self, symbol):
        self.symbol = symbol
        self.balance_sheet = {"assets": 10, "debt": 3}
        self.income_stmt = {"revenue": 7}
        self.cashflow = {"free": 2}
        self.info = {"name": f"{symbol} Corp"}
        self.recommendations = ["buy", "hold"]
    @property
    def news(self):
        if self.symbol == "BOOM":
            raise RuntimeError("news feed is down")
        return [{"title": f"{self.symbol} beats"}, {"title": f"{self.symbol} ships"}]
yfinance.Ticker = Ticker
sys.modules["yfinance"] = yfinance

arxiv = types.ModuleType("arxiv")
arxiv.SortCriterion = types.SimpleNamespace(Relevance="relevance", SubmittedDate="date")
class Search:
    def __init__(self, query, max_results, sort_by):
        self.query, self.max_results, self.sort_by = query, max_results, sort_by
    def results(self):
        for i in range(self.max_results):
            yield types.SimpleNamespace(
                pdf_url=f"https://arxiv.org/pdf/{i}", title=f"{self.query} {i}",
                summary=f"sorted by {self.sort_by}",
            )
arxiv.Search = Search
sys.modules["arxiv"] = arxiv

import requests
class Response:
    def __init__(self, method, url, kwargs):
        self.payload = {"method": method, "url": url, "params": kwargs.get("params"),
                        "json": kwargs.get("json")}
    def json(self):
        return self.payload
for method in ("get", "post", "patch", "put", "delete"):
    setattr(requests, method, lambda url, _m=method, **kw: Response(_m, url, kw))

# -- the specs, through a FunctionAgent --------------------------------------------------
from arxiv_spec import ArxivToolSpec
from code_interpreter_spec import CodeInterpreterToolSpec
from requests_spec import RequestsToolSpec
from wikipedia_spec import WikipediaToolSpec
from yahoo_finance_spec import YahooFinanceToolSpec
from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM

specs = [WikipediaToolSpec(), YahooFinanceToolSpec(), RequestsToolSpec(),
         CodeInterpreterToolSpec(), ArxivToolSpec(max_results=2)]
tools = [t for spec in specs for t in spec.to_tool_list()]
api = "https://api.example.com/items/{id}"
CALLS = [
    ("load_data", {"page": "Ada Lovelace"}),
    ("load_data", {"page": "Nobody"}),
    ("search_data", {"query": "ada"}),
    ("search_data", {"query": "zzz"}),
    ("balance_sheet", {"ticker": "ACME"}),
    ("income_statement", {"ticker": "ACME"}),
    ("cash_flow", {"ticker": "ACME"}),
    ("stock_basic_info", {"ticker": "ACME"}),
    ("stock_analyst_recommendations", {"ticker": "ACME"}),
    ("stock_news", {"ticker": "ACME"}),
    ("stock_news", {"ticker": "BOOM"}),
    ("get_request", {"url_template": api, "path_params": {"id": "7"}, "query_params": {"q": "x"}}),
    ("get_request", {"url_template": "not a url"}),
    ("post_request", {"url_template": api, "path_params": {"id": "7"}, "body": {"a": 1}}),
    ("patch_request", {"url_template": api, "path_params": {"id": "7"}, "body": {"a": 2}}),
    ("put_request", {"url_template": api, "path_params": {"id": "7"}, "body": {"a": 3}}),
    ("delete_request", {"url_template": api, "path_params": {"id": "7"}}),
    ("code_interpreter", {"code": "print(6 * 7)"}),
    ("code_interpreter", {"code": "1 / 0"}),
    ("arxiv_query", {"query": "agents"}),
    ("arxiv_query", {"query": "agents", "sort_by": "recent"}),
]
seen = {"prompts": [], "tools": []}

def model(messages, **kwargs):
    seen["tools"] = [t.metadata.to_openai_tool() for t in kwargs.get("tools") or []]
    if any(m.role == MessageRole.TOOL for m in messages):
        seen["prompts"] = [m.model_dump(mode="json") for m in messages]
        return ChatMessage(role=MessageRole.ASSISTANT, content="done")
    blocks = [ToolCallBlock(tool_call_id=f"call-{i}", tool_name=n, tool_kwargs=a)
              for i, (n, a) in enumerate(CALLS)]
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks)

async def run():
    agent = FunctionAgent(tools=tools, llm=MockFunctionCallingLLM(response_generator=model))
    handler = agent.run(user_msg="use every tool")
    results = [ev async for ev in handler.stream_events() if isinstance(ev, ToolCallResult)]
    await handler
    return results

results = asyncio.run(run())
sent = {}
for message in seen["prompts"]:
    if message["role"] == "tool":
        sent[message["additional_kwargs"]["tool_call_id"]] = message
out = {
    "tools": seen["tools"],
    "calls": {
        r.tool_id: {
            "tool": r.tool_name,
            "content": r.tool_output.content,
            "is_error": r.tool_output.is_error,
            "sent": sent[r.tool_id],
        }
        for r in results
    },
}
print(json.dumps(out, sort_keys=True))
"""


def _project(where: Path) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["llamaindex"]\n')
    for name in SPECS:
        shutil.copyfile(FIXTURES / f"{name}_spec.py.txt", where / f"{name}_spec.py")
    return where


def _migrate(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLWIRE, "migrate", *args, "."], cwd=tree, capture_output=True, text=True, timeout=300
    )


def _drive(tree: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(tree)],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    base = tmp_path_factory.mktemp("lispec")
    before, after = _project(base / "before"), _project(base / "after")
    run = _migrate(after)
    assert run.returncode == 0, run.stderr
    return before, after, run.stdout + run.stderr


def test_the_preset_alone_migrates_the_str_spec_functions(migrated: tuple[Path, Path, str]) -> None:
    before, after, summary = migrated
    assert "8 methods migrated" in summary, summary
    # Tools without `-> str` are reported and left byte-identical.
    for reason in (
        "RequestsToolSpec.get_request: has no return annotation",
        "CodeInterpreterToolSpec.code_interpreter: has no return annotation",
        "ArxivToolSpec.arxiv_query: has no return annotation",
    ):
        assert reason in summary
    for name in ("requests", "code_interpreter", "arxiv"):
        file = f"{name}_spec.py"
        assert (after / file).read_bytes() == (before / file).read_bytes()
    for name in ("wikipedia", "yahoo_finance"):
        text = (after / f"{name}_spec.py").read_text()
        ast.parse(text)
        assert "(ResultToolSpec):" in text and "-> str" not in text
    wiki = (after / "wikipedia_spec.py").read_text()
    assert 'ToolResult.error("Unable to load page. Try searching instead.")' in wiki
    assert "return self.load_data(pages[0], lang)" in wiki  # already a result: not wrapped


def test_a_second_run_changes_nothing(migrated: tuple[Path, Path, str]) -> None:
    _, after, _ = migrated
    files = {p.name: p.read_bytes() for p in after.glob("*.py")}
    again = _migrate(after)
    assert again.returncode == 0, again.stderr
    assert "0 methods migrated" in again.stdout + again.stderr
    assert {p.name: p.read_bytes() for p in after.glob("*.py")} == files


def test_every_tool_gives_the_model_the_same_text(migrated: tuple[Path, Path, str]) -> None:
    before, after, _ = migrated
    old, new = _drive(before), _drive(after)
    assert new["tools"] == old["tools"]  # the schemas and descriptions the model reads
    assert len(old["tools"]) == 2 + 6 + 5 + 1 + 1  # type: ignore[arg-type]
    old_calls, new_calls = old["calls"], new["calls"]
    assert isinstance(old_calls, dict) and isinstance(new_calls, dict)
    assert len(old_calls) == len(new_calls) == 21
    for call_id, was in old_calls.items():
        now = new_calls[call_id]
        assert now["sent"] == was["sent"], call_id  # the tool message, byte for byte
        assert now["content"] == was["content"], call_id
        if was["is_error"]:
            assert now["is_error"], call_id  # errors stay errors
    # What a migrated `except` branch returns is now flagged as the error it is.
    changed = {i for i, c in new_calls.items() if c["is_error"] != old_calls[i]["is_error"]}
    assert {new_calls[i]["tool"] for i in changed} == {"load_data"}
    assert any("Unable to load page" in new_calls[i]["content"] for i in changed)
    # A failing tool (the stubbed news feed) is an error before and after.
    boom = [c for c in new_calls.values() if "news feed is down" in c["content"]]
    assert boom and all(c["is_error"] for c in boom)
    assert "Ada Lovelace was a mathematician." in json.dumps(new_calls)


# --- which classes and methods are spec tools ---------------------------------------------

SHAPES = """\
from typing import ClassVar

from llama_index.core.tools.tool_spec import base as spec_base
from llama_index.core.tools.tool_spec.base import BaseToolSpec as Spec
from wikipedia_spec import WikipediaToolSpec

NAMES = ["b"]


class Annotated(spec_base.BaseToolSpec):
    spec_functions: ClassVar[list[str]] = ("a", ("b", "ab"))

    def a(self) -> str:
        return "a"

    def b(self) -> str:
        return "b"

    async def ab(self) -> str:
        return "b"

    def c(self) -> str:
        return "not listed"


class Child(Annotated):
    def a(self) -> str:
        return "child a"


class Twice(Spec):
    spec_functions = ["a"]
    spec_functions = ["a", "b"]

    def a(self) -> str:
        return "a"


class Computed(Spec):
    spec_functions = NAMES + ["a"]

    def a(self) -> str:
        return "a"


class NotAName(Spec):
    spec_functions = [f"{NAMES[0]}"]

    def b(self) -> str:
        return "b"


class Elsewhere(WikipediaToolSpec):
    def load_data(self, page: str, lang: str = "en") -> str:
        return page


class BaseToolSpec:
    spec_functions = ["a"]


class SameName(BaseToolSpec):
    def a(self) -> str:
        return "not llama-index"
"""


def test_spec_shapes(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["llamaindex"]\n')
    (tmp_path / "shapes.py").write_text(SHAPES)
    wikipedia = FIXTURES / "wikipedia_spec.py.txt"
    shutil.copyfile(wikipedia, tmp_path / "wikipedia_spec.py")
    run = _migrate(tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    text = (tmp_path / "shapes.py").read_text()
    ast.parse(text)
    migrated = {
        node.name: {
            f.name
            for f in node.body
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            and f.returns is not None
            and ast.unparse(f.returns) == "ToolResult"
        }
        for node in ast.parse(text).body
        if isinstance(node, ast.ClassDef)
    }
    assert migrated == {
        "Annotated": {"a", "b", "ab"},  # `c` is not listed: not a tool
        "Child": {"a"},  # the list it inherits from a class of this module
        "Twice": set(),
        "Computed": set(),
        "NotAName": set(),
        "Elsewhere": set(),
        "BaseToolSpec": set(),
        "SameName": set(),  # a class named BaseToolSpec is not LlamaIndex's
    }
    assert "class Annotated(ResultToolSpec):" in text
    assert "class Child(Annotated):" in text  # inherits the adapter
    assert "class Twice(Spec):" in text
    for reason in (
        "Twice.spec_functions: `spec_functions` is assigned more than once in Twice",
        "Computed.spec_functions: `spec_functions` of Computed is not a literal list of names",
        "NotAName.spec_functions: `spec_functions` of NotAName is not a literal list of names",
        "Elsewhere.spec_functions: `spec_functions` is not set in this module",
    ):
        assert reason in out, out
    assert "4 methods migrated" in out, out
    # Elsewhere's tools are unknown, and it overrides one: its base is left as it is.
    assert (tmp_path / "wikipedia_spec.py").read_bytes() == wikipedia.read_bytes()
    assert "WikipediaToolSpec.load_data: its subclass shapes.Elsewhere keeps" in out, out
    assert "0 methods migrated" in (lambda r: r.stdout + r.stderr)(_migrate(tmp_path))
