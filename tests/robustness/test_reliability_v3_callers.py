"""Issue 21: migrate never leaves a caller reading `.content` off a tool's `str`.

One test per reproducer of ../shared/repro/reliability-v3/ (01, 25, 22), each through the
real `toolwire migrate` command; the migrated program is then run in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))
CHAT = """
class ChatMessage:
    @classmethod
    def tool_result(cls, call_id, content):
        return (call_id, content)
"""
SINK = 'wire-sinks = ["app.chat.ChatMessage.tool_result:1"]\n'


def _project(root: Path, files: dict[str, str], config: str = SINK) -> None:
    (root / "app").mkdir()
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "chat.py").write_text(textwrap.dedent(CHAT).lstrip())
    for name, text in files.items():
        (root / "app" / name).write_text(textwrap.dedent(text).lstrip())
    (root / "pyproject.toml").write_text("[tool.toolwire]\n" + config)


def _migrate(root: Path) -> dict[str, object]:
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def _run(root: Path, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _skipped(summary: dict[str, object]) -> dict[str, str]:
    events = summary["skipped"]
    assert isinstance(events, list)
    return {f"{e['path']}:{e['class']}.{e['method']}": e["reason"] for e in events}


def test_01_a_base_declaration_stays_with_its_skipped_implementation(tmp_path: Path) -> None:
    _project(
        tmp_path,
        {
            "base.py": """
                import abc


                class Tool(abc.ABC):
                    @abc.abstractmethod
                    def execute(self, q: str) -> str: ...
            """,
            "a.py": """
                from app.base import Tool


                class A(Tool):
                    def execute(self, q: str) -> str:
                        return "a " + q
            """,
            "b.py": """
                from app.base import Tool


                class B(Tool):
                    def execute(self, q: str) -> str:
                        return "b " + q

                    def shout(self, q):
                        return self.execute(q).upper()
            """,
            "loop.py": """
                from app.base import Tool
                from app.chat import ChatMessage


                def invoke(tool: Tool, call_id: str, q: str):
                    result = tool.execute(q)
                    return ChatMessage.tool_result(call_id, result)
            """,
        },
        'tool-bases = ["app.base.Tool"]\n' + SINK,
    )
    code = "from app.b import B; from app.loop import invoke; print(invoke(B(), 'i', 'q'))"
    before = _run(tmp_path, code)
    loop = (tmp_path / "app" / "loop.py").read_bytes()
    summary = _migrate(tmp_path)
    # B's call through the loop still works: the loop is not rewritten to `.content`.
    assert _run(tmp_path, code) == before
    assert (tmp_path / "app" / "loop.py").read_bytes() == loop
    skipped = _skipped(summary)
    assert set(skipped) == {"app/base.py:Tool.execute", "app/b.py:B.execute"}
    assert "`B.execute` (app/b.py:5) is skipped" in skipped["app/base.py:Tool.execute"]
    # the implementation that can be migrated is
    migrated = summary["migrated"]
    assert isinstance(migrated, list)
    assert [(e["class"], e["method"]) for e in migrated] == [("A", "execute")]
    # the sink use of a call through the kept declaration is left for a person
    review = summary["left_for_review"]
    assert isinstance(review, list)
    listed = [f for f in review if f["path"] == "app/loop.py"]
    assert [(f["line"], f["code"]) for f in listed] == [(7, "TW301")]
    assert (
        "`Tool.execute` now returns a ToolResult from the migrated implementations"
        in (listed[0]["message"])
    )
    assert "a str from `B.execute`" in listed[0]["message"]


def test_25_a_stub_stays_with_its_skipped_implementation(tmp_path: Path) -> None:
    _project(
        tmp_path,
        {
            "tools.py": """
                class Search:
                    def execute(self, q) -> str:
                        return "found " + q

                    def loud(self, q):
                        return self.execute(q).upper()
            """,
            "tools.pyi": """
                class Search:
                    def execute(self, q: str) -> str: ...
                    def loud(self, q: str) -> str: ...
            """,
            "loop.py": """
                from app.tools import Search
                from app.chat import ChatMessage


                def handle(call_id, q):
                    r = Search().execute(q)
                    return ChatMessage.tool_result(call_id, r)
            """,
        },
    )
    stub = (tmp_path / "app" / "tools.pyi").read_bytes()
    summary = _migrate(tmp_path)
    assert (tmp_path / "app" / "tools.pyi").read_bytes() == stub
    skipped = _skipped(summary)
    assert "`Search.loud` uses the `str`" in skipped["app/tools.py:Search.execute"]
    assert "`Search.execute` (app/tools.py:2) is skipped" in skipped["app/tools.pyi:Search.execute"]
    assert _run(tmp_path, "from app.loop import handle; print(handle('i', 'q'))") == (
        "('i', 'found q')\n"
    )


def test_22_a_payload_rebound_through_nonlocal_or_global_is_left_for_a_person(
    tmp_path: Path,
) -> None:
    _project(
        tmp_path,
        {
            "tools.py": """
                class Search:
                    def execute(self, q) -> str:
                        return "found " + q
            """,
            "loop.py": """
                from app.chat import ChatMessage
                from app.tools import Search

                g = None


                def handle(call_id, q, fallback=False):
                    r = Search().execute(q)

                    def use_fallback():
                        nonlocal r
                        r = "cached answer"

                    if fallback:
                        use_fallback()
                    return ChatMessage.tool_result(call_id, r)


                def set_global():
                    global g
                    g = "global answer"


                def handle_global(call_id, q, fallback=False):
                    global g
                    g = Search().execute(q)
                    if fallback:
                        set_global()
                    return ChatMessage.tool_result(call_id, g)
            """,
        },
    )
    loop = (tmp_path / "app" / "loop.py").read_bytes()
    summary = _migrate(tmp_path)
    assert (tmp_path / "app" / "loop.py").read_bytes() == loop
    review = summary["left_for_review"]
    assert isinstance(review, list)
    assert sorted((f["line"], f["code"]) for f in review if f["path"] == "app/loop.py") == [
        (16, "TW301"),
        (29, "TW301"),
    ]
    assert all("nonlocal`/`global`" in f["message"] for f in review)
    code = "from app.loop import handle, handle_global as h; "
    code += "print(handle('i', 'q', True), h('i', 'q', True))"
    assert "cached answer" in _run(tmp_path, code)
