"""Issue 21, the tool side: migrate's tool-returns never changes what a method returns
or what a caller decides, silently.

Each test is one reproducer of ../shared/repro/reliability-v3/ (its number in the name),
run through the real `toolwire` command, and the migrated code is run by Python.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))


def toolwire(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOOLWIRE, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(cwd), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60, env=env
    )


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


# What a caller reads: the str of a skipped method, the content of a migrated one.
TEXT = "def text(r):\n    return r if isinstance(r, str) else r.content\n"


def test_02_a_local_named_toolresult_is_not_the_one_written(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "mylib/__init__.py": "",
            "mylib/types.py": """\
                class ToolResult:
                    def __init__(self, text):
                        self.text = text
                """,
            "lazy.py": """\
                class T:
                    def execute(self) -> str:
                        from mylib.types import ToolResult

                        r = ToolResult("hello")
                        return r.text
                """,
            "loopvar.py": """\
                class T:
                    def execute(self, results) -> str:
                        for ToolResult in results:
                            pass
                        return "done"
                """,
            "param.py": """\
                from toolwire import ToolResult


                class T:
                    def execute(self, ToolResult=None) -> str:
                        return "param"
                """,
        },
    )
    done = toolwire("migrate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    run = python(
        TEXT + "import lazy, loopvar, param\n"
        "print(text(lazy.T().execute()), text(loopvar.T().execute([])),"
        " text(param.T().execute()))\n",
        tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["hello", "done", "param"]
    # They were migrated (not skipped), through a name no local binds.
    assert "toolwire.ToolResult.text(r.text)" in (tmp_path / "lazy.py").read_text()
    assert 'ToolResult.text("param")' in (tmp_path / "param.py").read_text()


def test_03_a_return_that_can_be_none_is_skipped(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "t.py": """\
                class FallThrough:
                    def execute(self, ok) -> str:
                        if ok:
                            return "yes"


                class Ternary:
                    def execute(self, ok) -> str:
                        return "yes" if ok else None


                class OrNone:
                    def execute(self, d) -> str:
                        return d.get("k") or None


                class Later:
                    def execute(self, d) -> str:
                        found = None
                        for key in d:
                            found = key
                        return found
                """,
        },
    )
    done = toolwire("migrate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for line, name in ((2, "FallThrough"), (8, "Ternary"), (13, "OrNone"), (18, "Later")):
        assert f"t.py:{line}: {name}.execute: " in done.stdout, done.stdout
    run = python(
        "import t\n"
        "print([c().execute(a) for c, a in ((t.FallThrough, 0), (t.Ternary, 0),"
        " (t.OrNone, {}), (t.Later, {}))])\n",
        tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[None, None, None, None]"


def test_04_a_decorator_that_may_use_the_str_keeps_the_method(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "helpers.py": """\
                import functools


                def clip(n):
                    def deco(fn):
                        @functools.wraps(fn)
                        def inner(*a, **k):
                            return fn(*a, **k)[:n]
                        return inner
                    return deco
                """,
            "t.py": """\
                from helpers import clip


                class Search:
                    @clip(5)
                    def execute(self) -> str:
                        return "hello world"


                class Plain:
                    @staticmethod
                    def execute() -> str:
                        return "static"
                """,
        },
    )
    done = toolwire("migrate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "t.py:6: Search.execute: decorated by `clip`, which may use the returned str" in done.stdout
    ), done.stdout
    run = python(
        TEXT + "import t\nprint(text(t.Search().execute()), text(t.Plain.execute()))\n", tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["hello", "static"]
    assert 'ToolResult.text("static")' in (tmp_path / "t.py").read_text()


def test_24_a_caller_comparing_or_testing_the_str_is_listed(tmp_path: Path) -> None:
    # No config file: the module names come from the working directory, so the caller's
    # import of the tool is followed by migrate's review and by check alike.
    write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/tools.py": """\
                class Search:
                    def execute(self, q) -> str:
                        return "none" if not q else "found " + q
                """,
            "app/use.py": """\
                from app.tools import Search


                def lookup(q, table):
                    r = Search().execute(q)
                    if r == "none":
                        return "nothing found"
                    if not r:
                        return "empty"
                    match r:
                        case "found":
                            return table.get(r)
                    return r.content == "none" or r is None
                """,
        },
    )
    done = toolwire("migrate", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    review = done.stdout.partition("left for review")[2]
    found = [line.split()[0] for line in review.splitlines()[1:] if "TW106" in line]
    assert found == [
        "app/use.py:6:8:",
        "app/use.py:8:12:",
        "app/use.py:10:11:",
        "app/use.py:12:20:",
    ]
    check = toolwire("check", "app", cwd=tmp_path)
    assert check.returncode == 1, check.stdout + check.stderr
    assert [line.split()[0] for line in check.stdout.splitlines() if "TW106" in line] == found
