"""Migrate never changes what a program does without listing the place for a person.

Generated programs: a tool class with `execute(self, q) -> str` (plain, under an
abstract base, with a `.pyi` stub) and a caller using its return value one way (sink
call, comparison, truth test, match, str method, len, slice, f-string, passing on,
storing, returning, nonlocal rebinding). Each program runs before and after the real
`toolwire migrate`; any difference in its output must be at a listed place: a review
finding or a call site left for a person in the caller's file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))
CHAT = """
class ChatMessage:
    @classmethod
    def tool_result(cls, call_id, content):
        return ("tool", call_id, content)
"""
# Each use: the caller's body after `r = <tool call>`, returning what main() prints.
USES = {
    "sink": 'return ChatMessage.tool_result("i", r)',
    "str-method": "return r.upper()",
    "len": "return len(r)",
    "slice": "return r[:3]",
    "f-string": 'return f"<{r}>"',
    "contains": 'return "o" in r',
    "passing-on": 'return ChatMessage.tool_result("i", echo(r))',
    "storing": 'box = {"v": r}\n    return ChatMessage.tool_result("i", box["v"])',
    "nonlocal": (
        "def swap():\n        nonlocal r\n        r = 'cached'\n\n"
        "    if flag:\n        swap()\n"
        '    return ChatMessage.tool_result("i", r)'
    ),
    "comparison": 'return r == "none"',
    "truth": 'return "empty" if not r else "full"',
    "match": (
        'match r:\n        case "none":\n            return 0\n'
        "        case _:\n            return 1"
    ),
}
KINDS = ("plain", "abstract", "stub")


def _program(root: Path, name: str, kind: str, use: str, value: str, flag: bool) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "chat.py").write_text(textwrap.dedent(CHAT).lstrip())
    base, head = "", ""
    if kind == "abstract":
        (package / "base.py").write_text(
            "import abc\n\n\nclass Tool(abc.ABC):\n    @abc.abstractmethod\n"
            "    def execute(self, q: str) -> str: ...\n"
        )
        base, head = "(Tool)", f"from {name}.base import Tool\n\n\n"
    (package / "tools.py").write_text(
        f"{head}class Search{base}:\n    def execute(self, q: str) -> str:\n"
        f"        return {value!r} + q\n"
    )
    if kind == "stub":
        (package / "tools.pyi").write_text(
            "class Search:\n    def execute(self, q: str) -> str: ...\n"
        )
    call = "tool.execute(q)" if kind == "abstract" else "Search().execute(q)"
    param = "tool: Tool, " if kind == "abstract" else ""
    imports = f"from {name}.chat import ChatMessage\nfrom {name}.tools import Search\n"
    if kind == "abstract":
        imports += f"from {name}.base import Tool\n"
    body = USES[use]
    (package / "loop.py").write_text(
        f"{imports}\n\ndef echo(x):\n    return x\n\n\n"
        f"def handle({param}q: str, flag: bool = {flag!r}):\n    r = {call}\n    {body}\n"
    )
    args = "Search(), ''" if kind == "abstract" else "''"
    (package / "main.py").write_text(
        f"from {name}.loop import handle\nfrom {name}.tools import Search\n\n"
        f"try:\n    print(repr(handle({args})))\nexcept Exception as exc:\n"
        "    print(type(exc).__name__)\n"
    )


def _outputs(root: Path, names: list[str]) -> dict[str, str]:
    code = "import runpy, io, contextlib, json\nout = {}\n"
    code += f"for n in {names!r}:\n"
    code += "    buf = io.StringIO()\n    with contextlib.redirect_stdout(buf):\n"
    code += "        runpy.run_module(n + '.main', run_name='__main__')\n"
    code += "    out[n] = buf.getvalue()\nprint(json.dumps(out))\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    outputs: dict[str, str] = json.loads(done.stdout)
    return outputs


programs = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.sampled_from(["found ", "", "none", "Error: "]),
        st.booleans(),
    ),
    min_size=1,
    max_size=3,
)


def _check(use: str, batch: list[tuple[str, str, bool]], root: Path) -> None:
    names = []
    # The values a comparison, a truth test or a match tells apart, in every run.
    fixed = [("plain", "none", True), ("stub", "", False), ("abstract", "", True)]
    for number, (kind, value, flag) in enumerate([*fixed, *batch]):
        name = f"p{number}"
        _program(root, name, kind, use, value, flag)
        names.append(name)
    (root / "pyproject.toml").write_text(
        "[tool.toolwire]\nwire-sinks = ["
        + ", ".join(f'"{n}.chat.ChatMessage.tool_result:1"' for n in names)
        + "]\n"
    )
    before = _outputs(root, names)
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    after = _outputs(root, names)
    listed = {f["path"] for f in summary["left_for_review"]}
    listed |= {e["path"] for e in summary["left_for_a_person"]}
    for name in names:
        if before[name] != after[name]:
            assert f"{name}/loop.py" in listed, (use, name, before[name], after[name], summary)


@pytest.fixture(scope="module")
def counter() -> list[int]:
    return [0]


@pytest.mark.parametrize("use", list(USES))
def test_meaning_is_kept_or_listed(use: str, tmp_path: Path, counter: list[int]) -> None:
    @settings(
        max_examples=1,
        deadline=None,
        phases=(Phase.generate,),  # no shrinking: each example is a migrate run
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(programs)
    def run(batch: list[tuple[str, str, bool]]) -> None:
        counter[0] += 1
        root = tmp_path / f"run{counter[0]}"
        root.mkdir()
        _check(use, batch, root)

    run()
