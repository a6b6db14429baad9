"""Issue 15, part B: no byte of a file name reaches a terminal or an annotation unescaped,
a bad config is one line in every front-end, and a config that is not a regular file is
refused. Each test is one reproducer of ../shared/repro/reliability/, run through the real
commands (toolwire, flake8, mypy) in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
LEAK = "from toolwire import ToolResult\n\ndef show(r: ToolResult) -> None:\n    print(r)\n"
TOOL = 'class T:\n    def execute(self) -> str:\n        return "x"\n'
FORGED = "x\napp.py:1:1: TW301 forged finding\nx.py"
ESC = "esc\x1b[2J\x1b[31mRED.py"
BIDI = "bidi\u202eyp.txt.py"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    environ.update(env or {})
    command = [str(BIN / args[0]), *args[1:]]
    return subprocess.run(command, cwd=cwd, capture_output=True, env=environ, timeout=timeout)


# -- 13: output injection through file names -------------------------------------------------


@pytest.fixture
def hostile_names(tmp_path: Path) -> Path:
    for name in (FORGED, ESC, BIDI):
        (tmp_path / name).write_text(LEAK, encoding="utf-8")
    return tmp_path


def test_text_output_escapes_file_names(hostile_names: Path) -> None:
    done = run(["toolwire", "check", "."], hostile_names)
    out = done.stdout.decode()
    assert done.returncode == 1, done.stderr
    lines = out.splitlines()
    # One line per finding: the newline in a name does not start a (forged) line.
    assert len(lines) == 3, out
    assert not any(line.startswith("app.py") for line in lines)
    assert "\x1b" not in out and "\u202e" not in out
    assert {line.split(":")[0] for line in lines} == {
        "x\\napp.py",
        "esc\\x1b[2J\\x1b[31mRED.py",
        "bidi\\u202eyp.txt.py",
    }


def test_github_annotations_escape_file_names(hostile_names: Path) -> None:
    done = run(["toolwire", "check", "--format", "github", "."], hostile_names)
    out = done.stdout.decode()
    assert "\x1b" not in out and "\u202e" not in out
    annotations = [line for line in out.splitlines() if line.startswith("::error")]
    assert len(annotations) == 3, out
    assert all(line.startswith("::error file=") for line in out.splitlines()[:3])
    # `:` and `,` inside the property are escaped by the workflow-command rules.
    assert any("file=x\\napp.py%3A1%3A1%3A TW301 forged" in line for line in annotations)


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit"])
def test_machine_formats_escape_the_same_way(hostile_names: Path, fmt: str) -> None:
    done = run(["toolwire", "check", "--format", fmt, "."], hostile_names)
    text = done.stdout.decode("utf-8")
    assert "\\u001b" not in text and "\x1b" not in text
    if fmt == "junit":
        from xml.etree import ElementTree as ET

        files = {c.get("file") for c in ET.fromstring(text).iter("testcase")}
        shown = {FORGED.replace("\n", "\\n"), "esc\\x1b[2J\\x1b[31mRED.py", "bidi\\u202eyp.txt.py"}
        assert files == shown
        return
    document = json.loads(text)
    if fmt == "json":
        paths = {f["path"] for f in document["findings"]}
        assert "esc\\x1b[2J\\x1b[31mRED.py" in paths
    else:
        uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in document["runs"][0]["results"]
        }
        assert "esc%1B%5B2J%1B%5B31mRED.py" in uris


# -- 12: a file name that is not UTF-8 ---------------------------------------------------------


@pytest.fixture
def non_utf8_name(tmp_path: Path) -> Path:
    (tmp_path / os.fsdecode(b"bad\xff.py")).write_text(LEAK, encoding="utf-8")
    (tmp_path / "good.py").write_text(LEAK, encoding="utf-8")
    return tmp_path


STRICT = {"PYTHONIOENCODING": "utf-8:strict"}


@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif", "junit"])
def test_non_utf8_name_is_reported_in_every_format(non_utf8_name: Path, fmt: str) -> None:
    done = run(["toolwire", "check", "--format", fmt, "."], non_utf8_name, env=STRICT)
    assert done.returncode == 1, done.stderr
    text = done.stdout.decode("utf-8")  # strict: the output is valid UTF-8
    assert "good.py" in text
    if fmt == "sarif":
        results = json.loads(text)["runs"][0]["results"]
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {"bad%FF.py", "good.py"}  # the name's real bytes
    elif fmt == "json":
        assert {f["path"] for f in json.loads(text)["findings"]} == {"bad\\xff.py", "good.py"}
    else:
        assert "bad\\xff.py" in text


# -- 01, 02: a config error is one line, exit 2, in every front-end ---------------------------

BAD_CONFIGS = {
    "tool-not-a-table": ("tool = 1\n", "pyproject.toml: tool: expected a table, got 1"),
    "tool-a-list": ('tool = ["toolwire"]\n', "pyproject.toml: tool: expected a table"),
    "superscript": (
        '[tool.toolwire]\nwire-sinks = ["a.b:\u00b2"]\n',
        "pyproject.toml: [tool.toolwire] wire-sinks: 'a.b:\u00b2': the parameter must be",
    ),
}


@pytest.fixture(params=sorted(BAD_CONFIGS))
def bad_config(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    text, expected = BAD_CONFIGS[request.param]
    (tmp_path / "tool.py").write_text(TOOL, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    return tmp_path, expected


def _one_config_line(done: subprocess.CompletedProcess[bytes], expected: str) -> None:
    err = done.stderr.decode()
    assert done.returncode == 2, (done.stdout, err)
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [line for line in err.splitlines() if expected in line]
    assert len(lines) == 1, err


@pytest.mark.parametrize(
    "args",
    [["check", "."], ["migrate", "--check", "."], ["init", "."]],
    ids=["check", "migrate", "init"],
)
def test_config_error_in_toolwire_commands(bad_config: tuple[Path, str], args: list[str]) -> None:
    root, expected = bad_config
    before = (root / "pyproject.toml").read_bytes()
    if args[0] == "init" and "[tool.toolwire]" in expected:
        pytest.skip("init does not load an existing table; it says it exists (or --force)")
    _one_config_line(run(["toolwire", *args], root), expected)
    assert (root / "pyproject.toml").read_bytes() == before


def test_config_error_in_mypy(bad_config: tuple[Path, str]) -> None:
    root, expected = bad_config
    (root / "mypy.ini").write_text("[mypy]\nplugins = toolwire.mypy\n", encoding="utf-8")
    done = run(["mypy", "--cache-dir=/dev/null", "tool.py"], root)
    _one_config_line(done, expected)


def test_config_error_in_flake8(bad_config: tuple[Path, str]) -> None:
    """flake8 has no exit 2 for a plugin: the line is a TW000 on each file, and flake8 fails."""
    root, expected = bad_config
    done = run(["flake8", "--select", "TW,E9", "tool.py"], root)
    out = done.stdout.decode()
    assert done.returncode == 1, out + done.stderr.decode()
    assert out.count("TW000") == 1 and expected in out, out
    assert "internal error" not in out


# -- 25: a config that is not a regular file ---------------------------------------------------


@pytest.fixture
def fifo_project(tmp_path: Path) -> Path:
    os.mkfifo(tmp_path / "cfg.toml")
    (tmp_path / "t.py").write_text(TOOL, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args", [["check"], ["migrate", "--check"]], ids=["check", "migrate"])
@pytest.mark.parametrize("config", ["cfg.toml", "/dev/zero"])
def test_config_must_be_a_regular_file(fifo_project: Path, args: list[str], config: str) -> None:
    done = run(["toolwire", *args, "--config", config, "t.py"], fifo_project, timeout=30)
    _one_config_line(done, f"{config}: not a regular file")


def test_mypy_config_on_a_fifo(fifo_project: Path) -> None:
    (fifo_project / "mypy.ini").write_text(
        "[mypy]\nplugins = toolwire.mypy\nx_toolwire_config = cfg.toml\n", encoding="utf-8"
    )
    done = run(["mypy", "--cache-dir=/dev/null", "t.py"], fifo_project, timeout=60)
    _one_config_line(done, "cfg.toml: not a regular file")


def test_config_larger_than_the_cap(tmp_path: Path) -> None:
    from toolwire.lint.config import MAX_CONFIG_BYTES

    (tmp_path / "t.py").write_text(TOOL, encoding="utf-8")
    with (tmp_path / "big.toml").open("w", encoding="utf-8") as handle:
        handle.write("[toolwire]\n")
        handle.write("# padding\n" * (MAX_CONFIG_BYTES // 10 + 1))
    done = run(["toolwire", "check", "--config", "big.toml", "t.py"], tmp_path)
    _one_config_line(done, "big.toml: larger than")


# -- 17: the documented flake8 command fails on a file that does not parse ---------------------


def test_documented_flake8_selection_fails_on_a_broken_file(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(LEAK + "def broken(:\n", encoding="utf-8")
    (tmp_path / "nul.py").write_bytes(b"x = 1\x00\n")
    docs = (Path(__file__).parents[2] / "docs" / "integrations.md").read_text(encoding="utf-8")
    assert "$ flake8 --select TW,E9 " in docs and "$ flake8 --select TW " not in docs
    done = run(["flake8", "--select", "TW,E9", "broken.py", "nul.py"], tmp_path)
    out = done.stdout.decode()
    assert done.returncode == 1, out
    assert "broken.py:5:" in out and "E999" in out
    assert "nul.py:" in out


# -- 14, 15: init writes names only as escaped comments, and survives deep modules -------------


def test_init_file_names_cannot_write_keys(tmp_path: Path) -> None:
    import tomllib

    (tmp_path / 'a\nhtml-sinks = []\nignore = ["TW3"]\n#.py').write_text(TOOL, encoding="utf-8")
    (tmp_path / "cr\rname.py").write_text(TOOL, encoding="utf-8")
    done = run(["toolwire", "init", "."], tmp_path)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)["tool"]["toolwire"]
    assert "ignore" not in table and "html-sinks" not in table
    keys = {"result-class", "tool-methods", "tool-bases", "presets", "wire-sinks", "egress-sinks"}
    assert set(table) == keys
    assert "\r" not in text
    assert '#   T.execute -> str  (a\\nhtml-sinks = []\\nignore = ["TW3"]\\n#.py:2)' in text
    assert "(cr\\rname.py:2)" in text


def test_init_keeps_comments_and_other_tables(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text(TOOL, encoding="utf-8")
    old = '# mine\n[project]\nname = "x"  # keep\n\n[tool.black]\nline-length = 100\n'
    (tmp_path / "pyproject.toml").write_text(old, encoding="utf-8")
    assert run(["toolwire", "init", "."], tmp_path).returncode == 0
    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(old + "\n[tool.toolwire]\n")
    again = run(["toolwire", "init", "--force", "."], tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("depth", [500, 5000])
def test_init_on_deep_modules(tmp_path: Path, depth: int) -> None:
    (tmp_path / "generated.py").write_text(
        "X = " + " + ".join(["a"] * depth) + "\n", encoding="utf-8"
    )
    (tmp_path / "t.py").write_text(TOOL, encoding="utf-8")
    done = run(["toolwire", "init", "--dry-run", "."], tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"t.py:2: t.T.execute -> str" in done.stdout  # the rest of the scan goes on


def test_init_reports_a_module_too_deep_to_walk(tmp_path: Path) -> None:
    # Parses (the parser's limit is its own), but is deeper than any walk gets room for.
    (tmp_path / "deep.py").write_text("x = " + "-" * 30_000 + "1\n", encoding="utf-8")
    done = run(["toolwire", "init", "--dry-run", "."], tmp_path)
    assert done.returncode == 0, done.stderr
    assert b"skipped deep.py:1: cannot" in done.stdout, done.stdout


# -- 18: the mypy plugin walks each type once ---------------------------------------------------


def test_mypy_self_referencing_dataclass_is_fast(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = toolwire.mypy\n", encoding="utf-8")
    fields = "".join(f"    f{i}: Node\n" for i in range(8))
    (tmp_path / "n.py").write_text(
        "from __future__ import annotations\nfrom dataclasses import dataclass\n"
        "from toolwire import ToolResult\n\n@dataclass\nclass Node:\n"
        + fields
        + "    last: list[ToolResult]\n\n@dataclass\nclass Clean:\n    a: Clean\n    b: Clean\n"
        "    c: Clean\n    d: Clean\n\n"
        "def show(n: Node, c: Clean) -> None:\n    print(n)\n    print(c)\n",
        encoding="utf-8",
    )
    # 4 self-references hung mypy for > 300 s; 8, with a result at the end, must still answer.
    done = run(["mypy", "--cache-dir=/dev/null", "n.py"], tmp_path, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 1, out + done.stderr.decode()
    assert "n.py:25: error: TW204" in out
    assert out.count("TW204") == 1  # Clean holds no result


# -- 24: messages -----------------------------------------------------------------------------


def test_messages(tmp_path: Path) -> None:
    (tmp_path / "deep2.py").write_text("x = " + "not " * 10_000 + "1\n", encoding="utf-8")
    (tmp_path / "u32.py").write_bytes(b"\xff\xfe\x00\x00" + "x = 1\n".encode("utf-32-le"))
    (tmp_path / "p695.py").write_text("type X = int\n", encoding="utf-8")
    (tmp_path / "p695f.py").write_text("def f[T](x: T) -> T:\n    return x\n", encoding="utf-8")
    done = run(["toolwire", "check", "."], tmp_path)
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2
    assert "deep2.py:1:1: TW000 cannot parse: too deeply nested" in lines
    assert "u32.py:1:1: TW000 cannot decode: a UTF-32 file; Python source is UTF-8" in lines
    if sys.version_info < (3, 12):
        pep695 = [line for line in lines if line.startswith("p695")]
        assert len(pep695) == 2 and all("PEP 695, needs Python 3.12" in m for m in pep695)
    else:
        assert not [line for line in lines if line.startswith("p695")]
