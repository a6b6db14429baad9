"""Pass two of `toolwire migrate` opens only the modules `Prefilter.may_rewire` lets through.
A known tool class gives a result only where a tool method of it is called, so a module
that merely names the class is skipped; a call written across a line break or a comment
must still be found (a skipped file loses its review), through the real command."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from codemod_helpers import project

from toolwire.lint.config import load_config
from toolwire.lint.prefilter import Prefilter

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
# more than eight tool classes: the run tests their names as a set, not inside one regex
TOOLS = "\n\n".join(
    f"class Tool{i}:\n    def run(self, query: str) -> str:\n        return query.upper()\n"
    for i in range(9)
)
PLAIN = 'from tools import Tool3\n\n\ndef go(tool: Tool3) -> None:\n    print(tool.run("q"))\n'
BACKSLASH = (
    "from tools import Tool4\n\n\ndef go(tool: Tool4) -> None:\n"
    '    answer = tool.\\\n        run("q")\n    print(answer)\n'
)
COMMENT = (
    "from tools import Tool5\n\n\ndef go(tool: Tool5) -> None:\n"
    '    answer = (\n        tool.  # the tool\'s own text\n        run\n    )("q")\n'
    "    print(answer)\n"
)
LATIN1 = (
    "# -*- coding: latin-1 -*-\n# caf\xe9\nfrom tools import Tool8\n\n\n"
    "def go(tool: Tool8) -> None:\n    answer = tool.\\\n        run('q')\n    print(answer)\n"
)
LISTED = "from tools import Tool6, Tool7\n\nREGISTRY = [Tool6, Tool7]\nprint(REGISTRY)\n"
# a `.run(` of no tool, in a module the checks have nothing to start from
SUBPROCESS = 'import subprocess\n\n\ndef go() -> None:\n    print(subprocess.run(["ls"]))\n'


def test_calls_of_a_known_tool_are_reviewed_however_written(tmp_path: Path) -> None:
    files = {"tools.py": TOOLS, "plain.py": PLAIN, "backslash.py": BACKSLASH}
    root = project(tmp_path, {"tool-methods": ["run"]}, files)
    (root / "comment.py").write_text(COMMENT, encoding="utf-8")
    (root / "latin1.py").write_bytes(LATIN1.encode("latin-1"))
    (root / "listed.py").write_text(LISTED, encoding="utf-8")
    (root / "shell.py").write_text(SUBPROCESS, encoding="utf-8")
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    review = [line.strip() for line in done.stdout.splitlines() if "TW204" in line]
    assert [line.split(": ")[0] for line in review] == [
        "backslash.py:7:5",
        "comment.py:9:5",
        "latin1.py:9:5",
        "plain.py:5:5",
    ]
    assert "listed.py" not in done.stdout and "shell.py" not in done.stdout
    assert done.stderr.count("\n") <= 1
    assert "9 methods migrated" in done.stdout


def test_may_rewire_needs_a_tool_method_called_where_a_known_tool_is_only_named() -> None:
    known = frozenset(f"tools.Tool{i}" for i in range(9))
    config = load_config(None).with_overrides(tool_methods=("run",))
    test = Prefilter.of(config, known).may_rewire
    assert not test(LISTED.encode())
    assert test(BACKSLASH.encode()) and test(COMMENT.encode()) and test(LATIN1.encode("latin-1"))
    # the same module with the tool's method only referenced, not called here: still read
    assert test(LISTED.replace("print(REGISTRY)", "print(Tool6().run)").encode())
    # a method of another name after the dot is no tool call
    assert not test(LISTED.replace("print(REGISTRY)", "print(Tool6().runner)").encode())


def test_may_rewire_finds_a_message_sink_value_in_any_quotes() -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "toolwire.toml"
    test = Prefilter.of(load_config(bench)).may_rewire
    assert test(b"message = {'role': 'tool', 'content': text}\n")
    assert test(b'message = {"role": "tool\', "content": text}\n')
    assert test(b'message = {"type": "function_call_output", "output": text}\n')
    assert not test(b"message = {'role': 'tools', 'content': text}\n")
    assert not test(b"tool = 'user'\n")
