"""docs/editors.md, tested over the Language Server Protocol.

The setups an editor runs as a language server are driven here as an editor drives them:
the real `pylsp` (python-lsp-server) is started over stdio with the settings the page
gives, a file is opened and saved, and the diagnostics it publishes must carry the TW
finding from flake8 (pylsp's flake8 plugin, which runs the flake8 of the environment) and
from mypy (pylsp-mypy, with `plugins = ["toolwire.mypy"]`), at the same position. The
command lines the page gives for linters that read stdin (VS Code's flake8 extension,
nvim-lint, efm) are run too, and the settings blocks the page shows are the ones used
here (read from the page, so the page and the test cannot drift apart).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "editors.md"
BIN = Path(sys.executable).parent

SOURCE = """\
import logging

from toolwire import ToolResult

logger = logging.getLogger(__name__)


def search(query: str) -> ToolResult:
    return ToolResult.text(query)


def run() -> None:
    result = search("x")
    logger.info(str(result))
"""
# The clean twin carries one finding of each tool that is not toolwire's (pyflakes' F401
# through flake8, a mypy type error), so that "both have run" can be seen, and be empty of TW.
CLEAN = "import os\n" + SOURCE.replace("str(result)", "result.content") + "\nCOUNT: int = 'x'\n"
PYPROJECT = """\
[tool.toolwire]

[tool.mypy]
plugins = ["toolwire.mypy"]
"""
LEAK = (13, 16)  # 0-based line and character of `str(result)`, as LSP counts


def _page_block(marker: str) -> str:
    """The fenced block of the page that follows the line containing `marker`."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(marker)
    found = re.search(r"```[a-z]*\n(.*?)```", text[start:], re.S)
    assert found, f"no block after {marker!r} in {PAGE.name}"
    return found.group(1)


def _pylsp_settings() -> dict[str, Any]:
    settings = json.loads(_page_block("<!-- pylsp settings -->"))
    assert isinstance(settings, dict)
    return settings


class Client:
    """A minimal LSP client: Content-Length framing over the server's stdio."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        )
        self.messages: Queue[dict[str, Any]] = Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line:
                return
            self.messages.put(json.loads(stream.read(length)))

    def send(self, method: str, params: object, *, request: bool = False) -> int:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()
        return self.next_id

    def wait(self, match: Any, timeout: float = 120.0) -> dict[str, Any]:
        """The first message `match` accepts; server requests are answered with null."""
        while True:
            try:
                message = self.messages.get(timeout=timeout)
            except Empty:
                pytest.fail("the language server sent nothing that matched in time")
            if "id" in message and "method" in message:
                self._answer(message["id"])
            if match(message):
                return message

    def _answer(self, request_id: object) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": None}).encode()
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            shutdown = self.send("shutdown", None, request=True)
            self.wait(lambda m: m.get("id") == shutdown, timeout=30)
            self.send("exit", None)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _diagnostics(project: Path, text: str) -> list[dict[str, Any]]:
    """What pylsp publishes for `app.py` holding `text`, once flake8 and mypy have run."""
    path = project / "app.py"
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client = Client([str(BIN / "pylsp")], project)
    try:
        init = client.send(
            "initialize",
            {"processId": os.getpid(), "rootUri": project.as_uri(), "capabilities": {}},
            request=True,
        )
        client.wait(lambda m: m.get("id") == init)
        client.send("initialized", {})
        client.send("workspace/didChangeConfiguration", {"settings": _pylsp_settings()})
        document = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        client.send("textDocument/didOpen", {"textDocument": document})
        client.send("textDocument/didSave", {"textDocument": {"uri": uri}})
        # pylsp publishes after each lint; wait for one that carries both sources
        seen: list[dict[str, Any]] = []

        def complete(message: dict[str, Any]) -> bool:
            if message.get("method") != "textDocument/publishDiagnostics":
                return False
            if message["params"]["uri"] != uri:
                return False
            seen[:] = message["params"]["diagnostics"]
            return {"flake8", "mypy"} <= {d.get("source") for d in seen}

        client.wait(complete)
        return seen
    finally:
        client.close()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return tmp_path


def _tw(diagnostics: list[dict[str, Any]], source: str) -> list[tuple[int, int, str]]:
    found = []
    for diagnostic in diagnostics:
        if diagnostic.get("source") != source:
            continue
        code = str(diagnostic.get("code", ""))
        found_code = re.search(r"TW\d{3}", code + " " + diagnostic["message"])
        if found_code:
            start = diagnostic["range"]["start"]
            found.append((start["line"], start["character"], found_code.group()))
    return found


@pytest.mark.skipif(shutil.which("pylsp", path=str(BIN)) is None, reason="pylsp not installed")
def test_pylsp_shows_the_finding_from_both_layers_at_one_position(project: Path) -> None:
    diagnostics = _diagnostics(project, SOURCE)
    assert _tw(diagnostics, "flake8") == [(*LEAK, "TW201")], diagnostics
    assert _tw(diagnostics, "mypy") == [(*LEAK, "TW201")], diagnostics


@pytest.mark.skipif(shutil.which("pylsp", path=str(BIN)) is None, reason="pylsp not installed")
def test_pylsp_shows_nothing_on_the_clean_twin(project: Path) -> None:
    diagnostics = _diagnostics(project, CLEAN)
    assert _tw(diagnostics, "flake8") == [] and _tw(diagnostics, "mypy") == [], diagnostics


def _stdin_command(marker: str, path: Path) -> list[str]:
    """A command line of the page, with its file placeholder filled in."""
    line = _page_block(marker).strip()
    words = line.split()
    assert words[0] in {"flake8", "toolwire"}, line
    filled = [w.replace("${INPUT}", str(path)).replace("$FILENAME", str(path)) for w in words]
    return [str(BIN / filled[0]), *filled[1:]]


@pytest.mark.parametrize(
    "marker", ["<!-- flake8 stdin -->", "<!-- toolwire stdin -->"], ids=["flake8", "toolwire"]
)
def test_the_stdin_command_lines_report_the_finding_where_the_editor_puts_it(
    project: Path, marker: str
) -> None:
    path = project / "app.py"
    path.write_text("", encoding="utf-8")  # the buffer is unsaved: the file on disk is stale
    command = _stdin_command(marker, path)
    shown = subprocess.run(
        command, cwd=project, input=SOURCE, capture_output=True, text=True, check=False
    )
    assert re.search(rf"app\.py:{LEAK[0] + 1}:{LEAK[1] + 1}: TW201 ", shown.stdout), shown
    clean = subprocess.run(
        command, cwd=project, input=CLEAN, capture_output=True, text=True, check=False
    )
    assert "TW" not in clean.stdout, clean
