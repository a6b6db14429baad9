"""Every command the user guide shows is run here, so the guide cannot rot.

Conventions (docs/index.md states them for readers too):

- A ```console block holds commands after `$ `; the lines under a command are its
  expected output, matched in order against whole output lines (stdout and stderr),
  with `...` as a wildcard (a line of just `...` elides lines). A command exits 0
  unless it ends with `# exits N`. `cd DIR` changes the directory for later commands.
- ```console norun blocks are illustrative (network, your own repository) and skipped.
- A fenced block whose info string has `file=PATH` is written to PATH before the
  commands after it run; `append=PATH` appends to it (config snippets are tested too).
  `from=PATH` says the block is a copy of docs/PATH, and it must stay one.

Each page runs top to bottom in its own scratch directory: `agent/` (a copy of
examples/agent, the starting directory) and `table_artifact.py` beside it, as in a
checkout after `cp -r examples/agent examples/table_artifact.py /tmp/tw/`.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from adoption_helpers import BIN, REPO, copy_example, run

PAGES = [
    "index.md",
    "migration.md",
    "configuration.md",
    "integrations.md",
    "ci.md",
    "output-formats.md",
    "editors.md",
]
FENCE = re.compile(
    r"^(?P<fence>`{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S
)
EXITS = re.compile(r"\s+#\s*exits\s+(?P<code>\d+)\s*$")


@dataclass
class Command:
    line: int
    text: str
    exit_code: int
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    line: int
    info: list[str]
    body: str

    def option(self, name: str) -> str | None:
        return next((w.split("=", 1)[1] for w in self.info if w.startswith(f"{name}=")), None)

    def commands(self) -> list[Command]:
        commands: list[Command] = []
        for offset, raw in enumerate(self.body.splitlines(), 1):
            if raw.startswith("$ "):
                text = raw[2:]
                match = EXITS.search(text)
                code = int(match["code"]) if match else 0
                commands.append(
                    Command(self.line + offset, text[: match.start()] if match else text, code)
                )
            elif commands and raw.strip():
                commands[-1].expected.append(raw.rstrip())
        return commands


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(text[: m.start()].count("\n") + 1, m["info"].split(), m["body"])
        for m in FENCE.finditer(text)
    ]


def _matches(expected: list[str], actual: list[str]) -> str | None:
    """None when every expected line is found in order, else the first one missing."""
    position = 0
    for line in expected:
        if line.strip() == "...":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in line.split("...")))
        for index in range(position, len(actual)):
            if pattern.fullmatch(actual[index].rstrip()):
                position = index + 1
                break
        else:
            return line
    return None


def _scratch(tmp_path: Path) -> Path:
    copy_example(tmp_path / "agent")
    shutil.copy2(REPO / "examples" / "table_artifact.py", tmp_path / "table_artifact.py")
    return tmp_path / "agent"


@pytest.mark.parametrize("name", PAGES)
def test_page_commands(name: str, tmp_path: Path) -> None:
    page = REPO / "docs" / name
    cwd = _scratch(tmp_path)
    env = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}
    ran = 0
    for block in blocks(page):
        target = block.option("file") or block.option("append")
        if target:
            path = cwd / target
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a" if block.option("append") else "w", encoding="utf-8") as out:
                out.write(("\n" if block.option("append") else "") + block.body)
            continue
        if block.info[:1] != ["console"] or "norun" in block.info:
            continue
        for command in block.commands():
            where = f"docs/{name}:{command.line}: $ {command.text}"
            if command.text.startswith("cd "):
                cwd = (cwd / command.text[3:].strip()).resolve()
                assert cwd.is_dir(), where
                continue
            done = run(["bash", "-c", command.text], cwd, env=env, timeout=300)
            output = done.stdout + done.stderr
            assert done.returncode == command.exit_code, (
                f"{where}\nexited {done.returncode}, the page says {command.exit_code}\n{output}"
            )
            missing = _matches(command.expected, output.splitlines())
            assert missing is None, (
                f"{where}\nexpected output line not found: {missing!r}\n{output}"
            )
            ran += 1
    assert ran, f"docs/{name} runs no command"


def test_embedded_files_match() -> None:
    # ```yaml from=recipes/github-workflow.yml: the page shows the file as it is.
    for name in PAGES:
        for block in blocks(REPO / "docs" / name):
            source = block.option("from")
            if source:
                text = (REPO / "docs" / source).read_text(encoding="utf-8")
                assert block.body == text, f"docs/{name}:{block.line}: differs from {source}"


def test_few_commands_are_skipped() -> None:
    skipped = {name: sum("norun" in b.info for b in blocks(REPO / "docs" / name)) for name in PAGES}
    assert sum(skipped.values()) <= 8, skipped


def test_console_blocks_use_the_convention() -> None:
    # A shell block outside the convention would silently escape this test.
    for name in PAGES:
        for block in blocks(REPO / "docs" / name):
            if block.info[:1] in (["sh"], ["bash"], ["shell"]):
                pytest.fail(f"docs/{name}:{block.line}: use ```console (or ```console norun)")
            if block.info[:1] == ["console"]:
                assert block.commands(), f"docs/{name}:{block.line}: no `$ ` command"
