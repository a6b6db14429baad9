"""Issue 21, configuration: defects 08, 10, 11, 15, 20 and 23 (c) of
../shared/repro/reliability-v3/, each through the real front-ends (toolwire, flake8, mypy,
dmypy) in a subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
LEAK = "from toolwire import ToolResult\n\ndef show(r: ToolResult) -> None:\n    print(r)\n"
CHAT = (
    "class ChatMessage:\n    @classmethod\n"
    '    def tool_result(cls, call_id: str, content: str) -> "ChatMessage":\n'
    "        return cls()\n"
)
LOOP = (
    "from toolwire import ToolResult\n\nfrom app.chat import ChatMessage\n\n\n"
    "def send(call_id: str, result: ToolResult) -> ChatMessage:\n"
    "    return ChatMessage.tool_result(call_id, result.artifacts[0].label)\n"
)
SINK = 'wire-sinks = ["app.chat.ChatMessage.tool_result:1"]\n'

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")


def run(
    args: Sequence[str], cwd: Path, *, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    command = [str(BIN / args[0]), *args[1:]]
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env=environ, timeout=timeout
    )


def one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The one stderr line that holds every needle; no traceback anywhere."""
    assert "Traceback" not in result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if all(n in line for n in needles)]
    assert len(lines) == 1, result.stderr
    return lines[0]


def app(root: Path, table: str | None = None, name: str = "app") -> Path:
    """`app/chat.py` with a sink and `app/loop.py` sending an artifact to it."""
    (root / name).mkdir(parents=True)
    (root / name / "__init__.py").write_text("", encoding="utf-8")
    (root / name / "chat.py").write_text(CHAT, encoding="utf-8")
    (root / name / "loop.py").write_text(LOOP.replace("app.", f"{name}."), encoding="utf-8")
    if table is not None:
        (root / "pyproject.toml").write_text(table, encoding="utf-8")
    return root


# -- 08: select/ignore naming no rule --------------------------------------------------------


@pytest.mark.parametrize("code", ["TW310", "TW999"])
def test_08_select_in_the_table_naming_no_rule_is_a_config_error(tmp_path: Path, code: str) -> None:
    (tmp_path / "leak.py").write_text(LEAK, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.toolwire]\nselect = ["{code}"]\n', encoding="utf-8"
    )
    result = run(["toolwire", "check", "leak.py"], tmp_path)
    assert result.returncode == 2
    one_line_error(result, "pyproject.toml", "select", code, "names no toolwire rule")
    (tmp_path / "setup.cfg").write_text("[mypy]\nplugins = toolwire.mypy\n", encoding="utf-8")
    mypy = run(["mypy", "--cache-dir=/dev/null", "leak.py"], tmp_path)
    assert mypy.returncode == 2
    one_line_error(mypy, "toolwire: error:", "select", code)


def test_08_select_option_naming_no_rule_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text(LEAK, encoding="utf-8")
    for option in ("--select", "--ignore"):
        result = run(["toolwire", "check", option, "TW999", "leak.py"], tmp_path)
        assert result.returncode == 2
        one_line_error(result, option, "'TW999' names no toolwire rule")
    # Prefixes that some rule has stay valid.
    assert run(["toolwire", "check", "--select", "TW2", "leak.py"], tmp_path).returncode == 1
    assert run(["toolwire", "check", "--select", "TW3", "leak.py"], tmp_path).returncode == 0


def test_08_flake8_select_naming_no_rule_stops_flake8(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text(LEAK, encoding="utf-8")
    result = run(["flake8", "--select", "E,TW310", "leak.py"], tmp_path)
    assert result.returncode != 0
    line = one_line_error(result, "toolwire", "--select", "'TW310'", "names no toolwire rule")
    assert "'E'" not in line  # not our code: flake8's business
    extend = run(["flake8", "--extend-ignore", "TW999", "leak.py"], tmp_path)
    assert extend.returncode != 0
    one_line_error(extend, "--extend-ignore", "'TW999'")
    for good in ("TW", "TW2", "E,TW204"):
        ok = run(["flake8", "--select", good, "leak.py"], tmp_path)
        assert ok.returncode == 1 and "TW204" in ok.stdout, (good, ok.stdout, ok.stderr)


# -- 15 and 23 (c): a directory as the config file ---------------------------------------------


def test_15_mypy_config_naming_a_directory_stops_mypy(tmp_path: Path) -> None:
    app(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "toolwire.toml").write_text(SINK, encoding="utf-8")
    ini = "[mypy]\nplugins = toolwire.mypy\nx_toolwire_config = {}\n"
    (tmp_path / "mypy.ini").write_text(ini.format("tools/toolwire.toml"), encoding="utf-8")
    good = run(["mypy", "--cache-dir=/dev/null", "app"], tmp_path)
    assert good.returncode == 1 and "TW302" in good.stdout
    (tmp_path / "mypy.ini").write_text(ini.format("tools"), encoding="utf-8")
    result = run(["mypy", "--cache-dir=/dev/null", "app"], tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    one_line_error(result, "toolwire: error:", "tools", "a directory")
    assert "internal error" not in result.stderr


def test_23c_flake8_config_naming_a_directory_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text(LEAK, encoding="utf-8")
    for select in ("TW,E9", "TW3"):  # a TW000 would be hidden by the second
        args = ["flake8", "--select", select, "--toolwire-config", ".", "leak.py"]
        result = run(args, tmp_path)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "internal error" not in result.stdout + result.stderr
        assert "Is a directory: 3" not in result.stdout + result.stderr
        line = one_line_error(result, "--toolwire-config", "a directory, not a config file")
        assert line == (
            f"flake8: error: toolwire: --toolwire-config: {tmp_path.resolve()}: "
            "a directory, not a config file"
        )


# -- 20: toolwire.toml with top-level keys and a [toolwire] table --------------------------------


def test_20_toolwire_toml_with_both_forms_is_a_config_error(tmp_path: Path) -> None:
    app(tmp_path)
    (tmp_path / "toolwire.toml").write_text(f"{SINK}\n[toolwire]\npresets = []\n", encoding="utf-8")
    result = run(["toolwire", "check", "--config", "toolwire.toml", "app"], tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    one_line_error(result, "toolwire.toml", "wire-sinks", "[toolwire] table")
    # Either form alone is fine.
    (tmp_path / "toolwire.toml").write_text(f"[toolwire]\n{SINK}", encoding="utf-8")
    alone = run(["toolwire", "check", "--config", "toolwire.toml", "app"], tmp_path)
    assert alone.returncode == 1 and "TW302" in alone.stdout


# -- 10: dmypy sees a changed table ------------------------------------------------------------


def test_10_dmypy_sees_a_changed_toolwire_table(tmp_path: Path) -> None:
    app(tmp_path, '[tool.mypy]\nplugins = ["toolwire.mypy"]\n\n[tool.toolwire]\nwire-sinks = []\n')
    pyproject = tmp_path / "pyproject.toml"
    status = str(tmp_path / "dmypy.json")
    dmypy = ["dmypy", "--status-file", status]
    try:
        assert run([*dmypy, "start", "--", "app"], tmp_path).returncode == 0
        first = run([*dmypy, "check", "app"], tmp_path)
        assert first.returncode == 0, first.stdout + first.stderr
        # A sink added: `dmypy run` restarts the daemon (no file edited).
        pyproject.write_text(pyproject.read_text().replace("wire-sinks = []", SINK))
        added = run([*dmypy, "run", "--", "app"], tmp_path)
        assert added.returncode == 1 and "TW302" in added.stdout, added.stdout + added.stderr
        assert "Traceback" not in added.stderr
        # Removed again: an edited file is checked under the table as it is now.
        pyproject.write_text(pyproject.read_text().replace(SINK, "wire-sinks = []\n"))
        with (tmp_path / "app" / "loop.py").open("a", encoding="utf-8") as loop:
            loop.write("# edited\n")
        removed = run([*dmypy, "check", "app"], tmp_path)
        assert removed.returncode == 0, removed.stdout + removed.stderr
    finally:
        run([*dmypy, "stop"], tmp_path)


# -- 11: the mypy plugin uses each file's nearest table --------------------------------------------


def test_11_mypy_uses_each_packages_nearest_table(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = toolwire.mypy\n", encoding="utf-8")
    a = app(tmp_path / "packages" / "a", f"[tool.toolwire]\n{SINK}")
    b = app(tmp_path / "packages" / "b", "[tool.toolwire]\nwire-sinks = []\n", "other")
    check = run(["toolwire", "check", "packages"], tmp_path)
    assert check.returncode == 1
    assert [line.split(":")[0] for line in check.stdout.splitlines() if "TW302" in line] == [
        "packages/a/app/loop.py"
    ]
    cache = tmp_path / "cache"
    for package, name in ((a, "app"), (b, "other")):
        args = ["mypy", f"--cache-dir={cache}", "--config-file", "../../mypy.ini", name]
        mypy = run(args, package)
        expected = 1 if package == a else 0
        assert mypy.returncode == expected, (package, mypy.stdout, mypy.stderr)
        assert ("TW302" in mypy.stdout) == (package == a)
    # Both packages in one run, each under its own table; then from the warm cache.
    both = ["mypy", f"--cache-dir={cache}", "packages/a/app/loop.py", "packages/b/other/loop.py"]
    for _ in range(2):
        mypy = run(both, tmp_path)
        found = [line.split(":")[0] for line in mypy.stdout.splitlines() if "TW302" in line]
        assert found == ["app/loop.py"], mypy.stdout + mypy.stderr  # mypy's name for a's


def test_11_a_module_rechecked_from_the_cache_keeps_its_table(tmp_path: Path) -> None:
    """`app/sub` has a table without sinks under the root's: a warm run that rechecks
    `app/sub/x.py` only because `app/chat.py` changed (mypy does not parse it first)
    still checks it under `app/sub`'s table."""
    app(tmp_path, f"[tool.toolwire]\n{SINK}")
    (tmp_path / "app" / "sub").mkdir()
    (tmp_path / "app" / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "app" / "sub" / "x.py").write_text(LOOP, encoding="utf-8")
    (tmp_path / "app" / "sub" / "pyproject.toml").write_text(
        "[tool.toolwire]\nwire-sinks = []\n", encoding="utf-8"
    )
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = toolwire.mypy\n", encoding="utf-8")
    chat = tmp_path / "app" / "chat.py"
    for change in ("", "\ndef extra() -> int:\n    return 1\n"):
        chat.write_text(CHAT + change, encoding="utf-8")
        mypy = run(["mypy", f"--cache-dir={tmp_path / 'cache'}", "app"], tmp_path)
        found = [line.split(":")[0] for line in mypy.stdout.splitlines() if "TW302" in line]
        assert found == ["app/loop.py"], mypy.stdout + mypy.stderr
