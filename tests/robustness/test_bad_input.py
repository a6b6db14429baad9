"""Bad input through every front-end: a clear one-line error naming the path, no traceback,
and the good files of the same run still checked and left intact.

One tree holds every case; each front-end runs over it once (mypy stops at the first file
it cannot parse, so those cases get one small mypy run each).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[1] / "fixtures"
LEAK = "from toolwire import ToolResult\n\n\ndef show(r: ToolResult) -> None:\n    print(r)\n"
TOOL = "class Echo:\n    def execute(self, text: str) -> str:\n        return text\n"
HEAD = b"class T:\n    def execute(self) -> str:\n"  # makes a file a migrate candidate
DEPTH = 2000

# Files that cannot be read or parsed: every front-end must name them in one line.
BAD: dict[str, bytes] = {
    "syntax.py": HEAD + b"        return (\n",
    "bad_utf8.py": HEAD + b"        return '\xff'\n",
    "utf16.py": (HEAD.decode() + "        return 'x'\n").encode("utf-16"),
    "nul.py": HEAD + b"        return 'a'\x00\n",
    "parens.py": HEAD + b"        return " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n",
}
# Valid files with a leak on their last line: it must be reported.
LEAKY = {
    "good.py": LEAK.encode(),
    "bom.py": b"\xef\xbb\xbf" + LEAK.encode(),
    # 5 MB: a generated data module, then the leak.
    "big.py": b"".join(b'ROW_%d = "%s"\n' % (i, b"x" * 1000) for i in range(5000)) + LEAK.encode(),
    "x.py/inner.py": LEAK.encode(),  # inside a directory named x.py
}
CHAIN = ("a = 1\nx = " + " + ".join(["a"] * DEPTH) + "\n" + LEAK).encode()


def _leak_line(data: bytes) -> int:
    return data.count(b"\n")


@pytest.fixture(scope="module")
def tree() -> Iterator[Path]:
    # Not pytest's tmp_path: that is 0700, and the unreadable case runs as `nobody`.
    root = Path(tempfile.mkdtemp(prefix="toolwire-bad-"))
    root.chmod(0o755)
    shutil.copy(FIXTURES / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(FIXTURES / "app", root / "app")
    for name, data in {**BAD, **LEAKY, "chain.py": CHAIN, "tool.py": TOOL.encode()}.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_bytes(data)
    (root / "empty.py").write_bytes(b"")
    (root / "ro_tool.py").write_text(TOOL)
    (root / "ro_tool.py").chmod(0o444)
    (root / "loop.py").symlink_to("loop.py")
    (root / "mypy.ini").write_text("[mypy]\nplugins = toolwire.mypy\ncache_dir = /dev/null\n")
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink() and os.access(p, os.R_OK)
    }


def _run(
    args: list[str], cwd: Path, *, user: str | None = None
) -> subprocess.CompletedProcess[str]:
    prefix = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] if user else []
    env = {**os.environ, "CI": "true", "NO_COLOR": "1"}
    return subprocess.run(
        [*prefix, sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )


def _no_traceback(proc: subprocess.CompletedProcess[str]) -> str:
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output, output[-3000:]
    return output


def _names(output: str, name: str, codes: str) -> bool:
    """A line that starts with the path (as given or absolute), then line:col and a code."""
    path = rf"(?:\./|.*/)?{re.escape(name)}"
    return re.search(rf"^{path}:\d+(?::\d+)?:? (?:error: )?(?:{codes})\b", output, re.M) is not None


def test_check_cli(tree: Path) -> None:
    before = _snapshot(tree)
    proc = _run(["-m", "toolwire.lint.cli", "check", "--jobs", "1", "."], tree)
    output = _no_traceback(proc)
    assert proc.returncode == 2, output
    for name in [*BAD, "loop.py"]:
        assert _names(output, name, "TW000"), f"{name}:\n{output}"
    for name, data in LEAKY.items():
        assert re.search(rf"^{re.escape(name)}:{_leak_line(data)}:\d+: TW204", output, re.M), name
    # Deeply nested but valid: ast parses it, so the syntax layer must analyse it too.
    assert re.search(rf"^chain.py:{_leak_line(CHAIN)}:\d+: TW204", output, re.M), output
    assert "empty.py" not in output
    assert _snapshot(tree) == before


def test_check_parallel_keeps_good_files(tree: Path) -> None:
    proc = _run(["-m", "toolwire.lint.cli", "check", "--jobs", "2", "."], tree)
    output = _no_traceback(proc)
    for name, data in LEAKY.items():
        assert re.search(rf"^{re.escape(name)}:{_leak_line(data)}:\d+: TW204", output, re.M), name


def _as_nobody_works(cwd: Path) -> bool:
    if os.geteuid() != 0:
        return False
    if shutil.which("setpriv") is None:
        return False
    probe = _run(["-c", "import toolwire.lint.cli"], cwd, user="65534")
    return probe.returncode == 0


def test_unreadable_file_and_unwritable_target(tree: Path) -> None:
    """chmod 000 does not stop root: run as `nobody` then, or as ourselves when not root."""
    work = Path(tempfile.mkdtemp(prefix="toolwire-perm-"))
    try:
        work.chmod(0o755)
        shutil.copy(FIXTURES / "pyproject.toml", work / "pyproject.toml")
        shutil.copytree(FIXTURES / "app", work / "app")
        (work / "good.py").write_text(LEAK)
        (work / "secret.py").write_text(TOOL)
        (work / "secret.py").chmod(0)
        (work / "locked").mkdir()
        (work / "locked" / "tool.py").write_text(TOOL)
        (work / "locked").chmod(0o555)  # no temp file can be made beside it
        user = None
        if os.geteuid() == 0:
            if not _as_nobody_works(work):
                pytest.skip("running as root without a way to drop to an unprivileged user")
            user = "65534"
        check = _run(["-m", "toolwire.lint.cli", "check", "--jobs", "1", "."], work, user=user)
        output = _no_traceback(check)
        assert _names(output, "secret.py", "TW000"), output
        assert re.search(r"^good.py:5:\d+: TW204", output, re.M), output
        migrate = _run(["-m", "toolwire.lint.cli", "migrate", "."], work, user=user)
        output = _no_traceback(migrate)
        assert migrate.returncode == 2, output
        assert _names(output, "secret.py", "TW000"), output
        assert _names(output, "locked/tool.py", "TW000"), output
        assert (work / "locked" / "tool.py").read_text() == TOOL
    finally:
        (work / "locked").chmod(0o755)
        shutil.rmtree(work, ignore_errors=True)


def test_flake8_plugin(tree: Path) -> None:
    before = _snapshot(tree)
    # pyflakes itself dies of RecursionError on chain.py and takes the run with it; the
    # plugin's own handling of that file is checked in-process below.
    proc = _run(["-m", "flake8", "-j1", "--select", "TW,E9", "--exclude", "chain.py", "."], tree)
    output = _no_traceback(proc)
    assert proc.returncode == 1, output
    # flake8 reads undecodable bytes as latin-1 and hands the plugin a tree: checked, not lost.
    assert _names(output, "bad_utf8.py", "TW101"), output
    for name in [*(n for n in BAD if n != "bad_utf8.py"), "loop.py"]:
        assert _names(output, name, "TW000|E902|E999"), f"{name}:\n{output}"
    for name, data in LEAKY.items():
        assert re.search(rf"^\./{re.escape(name)}:{_leak_line(data)}:\d+: TW204", output, re.M)
    assert "empty.py" not in output
    assert _snapshot(tree) == before


def test_flake8_plugin_on_deep_chain(tree: Path) -> None:
    from toolwire.lint.flake8_plugin import ToolwireChecker

    source = CHAIN.decode()
    lines = source.splitlines(keepends=True)
    results = list(ToolwireChecker(ast.parse(source), str(tree / "chain.py"), lines).run())
    found = [(line, message.split()[0]) for line, _, message, _ in results]
    assert found == [(_leak_line(CHAIN), "TW204")], results


def test_migrate_check(tree: Path) -> None:
    before = _snapshot(tree)
    # parens.py once segfaulted LibCST's native parser and took the whole run with it.
    proc = _run(["-m", "toolwire.lint.cli", "migrate", "--check", "."], tree)
    output = _no_traceback(proc)
    assert proc.returncode == 2, output
    # UTF-16 bytes never match the text pre-filter, so it is (rightly) not a candidate.
    for name in [*(n for n in BAD if n != "utf16.py"), "loop.py"]:
        assert _names(output, name, "TW000"), f"{name}:\n{output}"
    assert re.search(r"^would change: (?:\./)?tool\.py$", output, re.M), output
    assert _snapshot(tree) == before


def test_migrate_write(tree: Path, tmp_path: Path) -> None:
    work = tmp_path / "tree"
    shutil.copytree(tree, work, symlinks=True)
    before = _snapshot(work)
    proc = _run(["-m", "toolwire.lint.cli", "migrate", "."], work)
    output = _no_traceback(proc)
    assert proc.returncode == 2, output
    assert _names(output, "ro_tool.py", "TW000"), output
    after = _snapshot(work)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"tool.py"}, output
    migrated = (work / "tool.py").read_text()
    ast.parse(migrated)
    assert "ToolResult.text(text)" in migrated
    again = _run(["-m", "toolwire.lint.cli", "migrate", "tool.py"], work)
    assert again.returncode == 0, again.stdout + again.stderr
    assert (work / "tool.py").read_text() == migrated


@pytest.mark.skipif(
    importlib.util.find_spec("toolwire.mypy") is None, reason="the mypy plugin is not installed"
)
class TestMypy:
    def test_parseable_files(self, tree: Path) -> None:
        names = [*LEAKY, "chain.py", "empty.py", "tool.py"]
        proc = _run(["-m", "mypy", "--config-file", "mypy.ini", *names], tree)
        output = _no_traceback(proc)
        for name, data in {**LEAKY, "chain.py": CHAIN}.items():
            line = _leak_line(data)
            assert re.search(rf"^{re.escape(name)}:{line}: error: TW204", output, re.M), output

    @pytest.mark.parametrize("name", [*BAD, "loop.py"])
    def test_unparseable_file(self, tree: Path, name: str) -> None:
        # mypy stops at a file it cannot parse: that is mypy's rule, not the plugin's.
        proc = _run(["-m", "mypy", "--config-file", "mypy.ini", "good.py", name], tree)
        output = _no_traceback(proc)
        assert proc.returncode in (1, 2), output
        assert re.search(rf"^{re.escape(name)}(?::\d+)*: error: ", output, re.M), output
