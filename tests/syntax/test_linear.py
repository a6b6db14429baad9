"""The value flow does work linear in the module: counted, not timed.

`Flow.work` counts statement visits, names joined at branches and loop heads, and calls
expanded (a `partial` written out at its call).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from toolwire.lint.analysis.context import Context
from toolwire.lint.analysis.facts import ModuleFacts
from toolwire.lint.analysis.flow import Flow
from toolwire.lint.checks import visitors
from toolwire.lint.config import load_config
from toolwire.lint.engine import check_source

CONFIG = load_config(Path(__file__).parents[1] / "fixtures" / "pyproject.toml")
HEAD = "from toolwire import ToolResult\nfrom app.chat import ChatMessage\n\n"


def work(source: str) -> int:
    tree = ast.parse(source)
    ctx = Context(ModuleFacts(tree, CONFIG, "m"), source.splitlines(), "m.py")
    flow = Flow(ctx, visitors(CONFIG.select, CONFIG.ignore))
    flow.module(tree)
    return flow.work


def nested(depth: int, header: str) -> str:
    lines = [HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:"]
    for level in range(depth):
        lines.append("    " * (level + 1) + header.format(level=level))
    indent = "    " * (depth + 1)
    lines.append(f"{indent}y = r\n{indent}ChatMessage.tool_result('id', content=y)")
    return "\n".join(lines) + "\n"


def nested_branches(depth: int) -> str:
    lines = [HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:"]
    for level in range(depth):
        pad = "    " * (2 * level + 1)
        lines.append(f"{pad}if xs:\n{pad}    for x{level} in xs:")
    indent = "    " * (2 * depth + 1)
    lines.append(f"{indent}y = r\n{indent}ChatMessage.tool_result('id', content=y)")
    return "\n".join(lines) + "\n"


def nested_defs(depth: int) -> str:
    lines = [HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:"]
    for level in range(depth):
        pad = "    " * (2 * level + 1)
        lines.append(f"{pad}for x{level} in xs:\n{pad}    def g{level}() -> None:")
    indent = "    " * (2 * depth + 1)
    lines.append(f"{indent}y = r\n{indent}ChatMessage.tool_result('id', content=y)")
    return "\n".join(lines) + "\n"


def nested_tries(depth: int) -> str:
    # each level binds a name in its try body, and its handler reads it
    lines = [HEAD + "def f(xs: list[ToolResult], r: ToolResult) -> None:"]
    for level in range(depth):
        pad = "    " * (level + 1)
        lines.append(f"{pad}try:\n{pad}    z{level} = r")
    indent = "    " * (depth + 1)
    lines.append(f"{indent}y = r\n{indent}ChatMessage.tool_result('id', content=y)")
    for level in reversed(range(depth)):
        pad = "    " * (level + 1)
        lines.append(f"{pad}except ValueError:\n{pad}    z{level} = 'x'")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "build",
    [
        lambda d: nested(d, "for x{level} in xs:"),
        lambda d: nested(d, "while xs:"),
        nested_branches,
        nested_defs,
        nested_tries,
    ],
    ids=["for", "while", "for-in-if", "def-in-for", "try"],
)
def test_nested_loops_cost_depth_times_body_not_two_to_the_depth(
    build: Callable[[int], str],
) -> None:
    at = {depth: work(build(depth)) for depth in (10, 20, 30)}
    # The body at depth d binds d names, so O(depth x body) is d^2: 9x from 10 to 30.
    assert at[30] < 10 * at[10], at
    assert at[30] < 4 * 30 * 30, at
    findings = check_source(build(30), "m.py", CONFIG)
    assert [f.code for f in findings] == ["TW301"]


def test_a_handler_sees_a_result_bound_anywhere_in_the_try_body() -> None:
    source = HEAD + (
        "def f(r: ToolResult) -> None:\n"
        "    try:\n"
        "        try:\n"
        "            v = r\n"
        "            v = v.content\n"
        "        finally:\n"
        "            w = 'x'\n"
        "        w = 'y'\n"
        "    except ValueError:\n"
        "        ChatMessage.tool_result('id', content=v)\n"
        "        ChatMessage.tool_result('id', content=w)\n"
    )
    findings = check_source(source, "m.py", CONFIG)
    assert [(f.line, f.code) for f in findings] == [(13, "TW301")]


def test_sequential_ifs_cost_linear_joins() -> None:
    def build(n: int) -> str:
        body = "".join(f"    if r:\n        v{i} = r\n" for i in range(n))
        return HEAD + "def f(r: ToolResult) -> None:\n" + body

    small, large = work(build(500)), work(build(4000))
    assert large <= 9 * small, (small, large)
    assert large < 10 * 4000


def test_sequential_loops_cost_linear_work() -> None:
    def build(n: int) -> str:
        body = "".join(f"    for v{i} in xs:\n        w{i} = v{i}\n" for i in range(n))
        return HEAD + "def f(xs: list[ToolResult]) -> None:\n" + body

    small, large = work(build(500)), work(build(4000))
    assert large <= 9 * small, (small, large)


LOOP_CARRIED = HEAD + (
    "def f(calls: list[str], r: ToolResult) -> None:\n"
    "    previous = 'none yet'\n"
    "    for call in calls:\n"
    "        ChatMessage.tool_result(call, content=previous)\n"
    "        middle = previous\n"
    "        previous = r\n"
)
LOOP_CARRIED_TWO_STEPS = HEAD + (
    "def f(calls: list[str], r: ToolResult) -> None:\n"
    "    a = b = 'none yet'\n"
    "    while calls:\n"
    "        ChatMessage.tool_result('id', content=a)\n"
    "        a = b\n"
    "        b = r\n"
)


@pytest.mark.parametrize(("source", "line"), [(LOOP_CARRIED, 7), (LOOP_CARRIED_TWO_STEPS, 7)])
def test_a_value_bound_on_a_later_pass_reaches_the_sink(source: str, line: int) -> None:
    findings = check_source(source, "m.py", CONFIG)
    assert [(f.line, f.code) for f in findings] == [(line, "TW301")]


def chain(n: int) -> str:
    helpers = "".join(f"def f{i}(r):\n    return f{i + 1}(r)\n\n\n" for i in range(n))
    last = f"def f{n}(r):\n    return ChatMessage.tool_result('id', content=r)\n\n\n"
    use = "def use(result: ToolResult) -> None:\n    f0(result)\n    f0(result.content)\n"
    return HEAD + helpers + last + use


def test_summaries_are_linear_on_a_call_chain() -> None:
    small, large = work(chain(10)), work(chain(30))
    assert large <= 4 * small, (small, large)
    findings = check_source(chain(30), "m.py", CONFIG)
    # the sink at the end of the chain, reached from the one call that passes a result
    assert [(f.code, f.line) for f in findings] == [("TW301", 3 + 4 * 31 + 2)]


def test_a_chain_deeper_than_the_summary_depth_is_cut_not_a_crash() -> None:
    findings = check_source(chain(3000), "m.py", CONFIG)
    assert findings == []


def test_summaries_converge_on_recursion() -> None:
    source = HEAD + (
        "def ping(n, r):\n"
        "    return pong(n - 1, r) if n else ChatMessage.tool_result('id', content=r)\n\n\n"
        "def pong(n, r):\n"
        "    return ping(n, r)\n\n\n"
        "def use(result: ToolResult) -> None:\n"
        "    pong(3, result)\n"
    )
    findings = check_source(source, "m.py", CONFIG)
    assert [(f.code, f.line) for f in findings] == [("TW301", 13)]


def self_wrapping_partials(n: int) -> str:
    # django's gdal prototypes: `void_output = partial(void_output, cpl=True)`, then calls
    calls = "".join(f"send_{i} = send(ChatMessage, {i})\n" for i in range(n))
    return HEAD + "from functools import partial\nsend = partial(send, cpl=True)\n" + calls


def test_a_partial_that_wraps_its_own_name_is_written_out_once_per_call() -> None:
    small, large = work(self_wrapping_partials(10)), work(self_wrapping_partials(40))
    # Each call expands once: before, the name found itself 40 levels down.
    assert large < 3 * 40, (small, large)
    assert large <= 4 * small + 10, (small, large)


def test_a_partial_of_a_sink_still_reaches_it() -> None:
    source = HEAD + (
        "from functools import partial\n"
        "send = partial(ChatMessage.tool_result, 'id')\n"
        "def use(result: ToolResult) -> None:\n"
        "    send(content=result)\n"
        "    send(content=result.content)\n"
    )
    findings = check_source(source, "m.py", CONFIG)
    assert [(f.code, f.line) for f in findings] == [("TW301", 7)]
