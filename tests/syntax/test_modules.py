"""Across the modules of one `toolwire check` run: imported tool classes and function
summaries, through the real command (a subprocess), in one process and in a pool.

Each case is a small package; `# expect: TWnnn` marks every line that must be flagged,
and no other line may be.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[1] / "fixtures"
TOOLWIRE = [str(Path(sys.executable).parent / "toolwire")]
EXPECT = re.compile(r"#\s*expect:\s*(TW\d{3}(?:\s*,\s*TW\d{3})*)")

TOOLS = """
from toolwire import ToolResult


class SearchTool:
    def execute(self, arguments: dict[str, str]) -> ToolResult:
        return ToolResult.text("found")
"""

HELPERS = """
def fmt(r):
    return f"result: {r}"


def passthrough(value):
    return value


def make():
    from app.tools import SearchTool

    return SearchTool().execute({})


def shout(r, loud=False):
    return str(r) if loud else "quiet"
"""

AGENT = """
from app.chat import ChatMessage
from app.helpers import fmt, make, passthrough, shout
from .tools import SearchTool


def tool_class(call_id: str, args: dict[str, str]) -> object:
    result = SearchTool().execute(args)
    print(f"{result.content}")
    return f"{result}"  # expect: TW202


def helper_formats(args: dict[str, str]) -> None:
    result = SearchTool().execute(args)
    fmt(result)  # expect: TW202
    fmt(result.content)
    fmt("plain text")


def helper_passes(call_id: str, args: dict[str, str]) -> None:
    result = SearchTool().execute(args)
    ChatMessage.tool_result(call_id, passthrough(result))  # expect: TW301
    ChatMessage.tool_result(call_id, passthrough(result.content))
    ChatMessage.tool_result(call_id, passthrough("plain"))


def helper_returns(call_id: str) -> None:
    made = make()
    ChatMessage.tool_result(call_id, made)  # expect: TW301
    ChatMessage.tool_result(call_id, made.content)


def by_keyword(args: dict[str, str]) -> None:
    result = SearchTool().execute(args)
    shout(loud=True, r=result)  # expect: TW201
    shout(r=result.content)
"""


def write(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text((FIXTURES / "pyproject.toml").read_text())
    package = root / "src" / "app"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "chat.py").write_text((FIXTURES / "app" / "chat.py").read_text())
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())


def expected(root: Path) -> set[tuple[str, int, str]]:
    out = set()
    for path in sorted((root / "src").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in re.split(r"\s*,\s*", match[1]):
                    out.add((str(path.relative_to(root)), number, code))
    return out


def check(root: Path, *args: str) -> tuple[int, set[tuple[str, int, str]], list[str]]:
    run = subprocess.run(
        [*TOOLWIRE, "check", "--format", "json", *args, "src"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode in (0, 1), run.stderr
    report = json.loads(run.stdout)
    found = {(f["path"], f["line"], f["code"]) for f in report["findings"]}
    return run.returncode, found, [f["message"] for f in report["findings"]]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_imports_across_modules(tmp_path: Path, jobs: str) -> None:
    write(tmp_path, {"tools.py": TOOLS, "helpers.py": HELPERS, "agent.py": AGENT})
    _, found, messages = check(tmp_path, "--jobs", jobs)
    assert found == expected(tmp_path)
    assert any("in app.helpers at line 2" in m for m in messages)


LOGGED = """
import logging

log = logging.getLogger(__name__)


def note(value):
    log.info("value %s", value)


def note_root(value):
    logging.info("value %s", value)
"""

LOGGING_CALLER = """
from toolwire import ToolResult

from app.logged import note, note_root


def run(result: ToolResult) -> None:
    note(result)  # expect: TW204
    note_root(result)  # expect: TW204
    note(result.content)
    note_root(result.content)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_helper_logs_through_its_modules_logger(tmp_path: Path, jobs: str) -> None:
    """Issue 23: the helper's module names no marker, so only its summaries are computed;
    they see its top-level bindings (`log = logging.getLogger(...)`) too."""
    write(tmp_path, {"logged.py": LOGGED, "caller.py": LOGGING_CALLER})
    _, found, messages = check(tmp_path, "--jobs", jobs)
    assert found == expected(tmp_path)
    assert any("in app.logged at line 7" in m for m in messages)


MAKERS = """
from toolwire import ToolResult


def make_result() -> ToolResult:
    return ToolResult.text("made")


def make_text() -> str:
    return "text"
"""

REEXPORTING = """
from .logged import note as log_it
from app.util.makers import make_result, make_text
"""

REEXPORT_CALLER = """
import logging

import app.util
from app.util import log_it, make_result, make_text
from toolwire import ToolResult


def run(result: ToolResult) -> None:
    log_it(result)  # expect: TW204
    app.util.log_it(result)  # expect: TW204
    logging.info("%s", make_result())  # expect: TW204
    log_it(result.content)
    logging.info("%s", make_result().content)
    logging.info("%s", make_text())
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_functions_re_exported_by_a_package_init(tmp_path: Path, jobs: str) -> None:
    """Issue 23: a package's `__init__` re-exports its modules' functions, renamed or not,
    by relative or absolute import; the callers get their summaries through it."""
    files = {
        "util/__init__.py": REEXPORTING,
        "util/logged.py": LOGGED,
        "util/makers.py": MAKERS,
        "caller.py": REEXPORT_CALLER,
    }
    write(tmp_path, files)
    _, found, messages = check(tmp_path, "--jobs", jobs)
    assert found == expected(tmp_path)
    assert any("in app.util.logged at line 7" in m for m in messages)


MODELS = """
from dataclasses import dataclass

from toolwire import ToolResult


@dataclass
class Step:
    name: str
    result: ToolResult
    results: list[ToolResult]


class Runner:
    def __init__(self) -> None:
        self.title = "runner"

    def run(self) -> None:
        self.last = ToolResult.text("done")

    def fetch(self) -> ToolResult:
        return ToolResult.text("x")

    def describe(self) -> str:
        return "runner"
"""

CLASS_USER = """
import logging

from app.models import Runner
from app.util import Step

log = logging.getLogger(__name__)


def show(step: Step, runner: Runner) -> None:
    log.info("%s", step.result)  # expect: TW204
    log.info("%s", step.results)  # expect: TW204
    log.info("%s", runner.fetch())  # expect: TW204
    log.info("%s", runner.last)  # expect: TW204
    log.info("%s", Step("a", runner.fetch(), []).result)  # expect: TW204
    log.info("%s", step.result.content)
    log.info("%s %s", step.name, runner.title)
    log.info("%s", runner.describe())
    log.info("%s", [r.is_error for r in step.results])
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_imported_classes_fields_and_methods(tmp_path: Path, jobs: str) -> None:
    """Issue 23: an imported dataclass's fields, the attributes an imported class's methods
    set, and its methods' declared returns; also through a package's re-export."""
    files = {
        "models.py": MODELS,
        "util/__init__.py": "from app.models import Step\n",
        "user.py": CLASS_USER,
    }
    write(tmp_path, files)
    _, found, _ = check(tmp_path, "--jobs", jobs)
    assert found == expected(tmp_path)


def test_one_file_alone_knows_nothing_of_the_others(tmp_path: Path) -> None:
    """flake8 and a one-file run see a module alone: the imported tool is unknown."""
    write(tmp_path, {"tools.py": TOOLS, "helpers.py": HELPERS, "agent.py": AGENT})
    run = subprocess.run(
        [*TOOLWIRE, "check", "--format", "json", "src/app/agent.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(run.stdout)["findings"] == []


def test_recursion_across_modules_converges(tmp_path: Path) -> None:
    ping = """
    from app.pong import pong


    def ping(r, n):
        if n:
            return pong(r, n - 1)
        return f"{r}"
    """
    pong = """
    from app.ping import ping


    def pong(r, n):
        return ping(r, n) if n else pong(r, n)
    """
    agent = """
    from app.ping import ping
    from app.pong import pong
    from app.tools import SearchTool


    def go() -> None:
        result = SearchTool().execute({})
        ping(result, 3)  # expect: TW202
        ping(result.content, 3)
    """
    write(tmp_path, {"tools.py": TOOLS, "ping.py": ping, "pong.py": pong, "agent.py": agent})
    _, found, _ = check(tmp_path, "--jobs", "1")
    assert found == expected(tmp_path)


def test_a_deep_chain_of_modules(tmp_path: Path) -> None:
    """600 modules, each calling the next: no recursion limit, and the finding at the end
    of the chain reaches the first call with a message that does not grow with it."""
    depth = 600
    files = {"tools.py": TOOLS}
    for index in range(depth):
        if index == depth - 1:
            body = "def step{i}(r):\n    return f'{{r}}'\n"
        else:
            body = "from app.m{n} import step{n}\n\n\ndef step{i}(r):\n    return step{n}(r)\n"
        files[f"m{index}.py"] = body.format(i=index, n=index + 1)
    files["agent.py"] = """
    from app.m0 import step0
    from app.tools import SearchTool


    def go() -> None:
        result = SearchTool().execute({})
        step0(result)  # expect: TW202
        step0(result.content)
    """
    write(tmp_path, files)
    _, found, messages = check(tmp_path, "--jobs", "1")
    assert {f for f in found if f[0].endswith("agent.py")} == expected(tmp_path)
    [message] = [m for m in messages if m.startswith("step0()")]
    assert f"in app.m{depth - 1} at line 2" in message
    assert len(message) < 200
