"""`toolwire migrate` removes the imports it made unused, and only those (issue #25).

Through the real command on langchain tools; ruff's F401 is the judge of "unused".
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from codemod_helpers import RUFF, TOOLWIRE, ruff_unused_imports

ROOT = Path(__file__).resolve().parents[2]

TOOL = """
@tool
def add(a: int, b: int) -> str:
    \"\"\"Add two numbers.\"\"\"
    return str(a + b)
"""
CLASS = """
class ReadFile(BaseTool):
    name: str = "read_file"
    description: str = "Read a file."

    def _run(self, path: str) -> str:
        return path
"""


def _project(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["langchain"]\n')
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def _migrate(root: Path) -> str:
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["methods_migrated"] >= 1
    return done.stdout


@pytest.fixture(autouse=True)
def _langchain() -> None:
    pytest.importorskip("langchain_core")


def test_the_decorator_and_base_class_imports_migrate_replaced_are_removed(
    tmp_path: Path,
) -> None:
    root = _project(
        tmp_path,
        {
            "fn.py": "import json\n\nfrom langchain_core.tools import tool\n\n" + TOOL,
            "cls.py": "from langchain_core.tools import BaseTool\n\n" + CLASS,
            "both.py": "from langchain_core.tools import BaseTool, tool\n\n" + TOOL + "\n" + CLASS,
        },
    )
    assert ruff_unused_imports(root) == {("fn.py", "`json` imported but unused")}
    _migrate(root)
    for name in ("fn.py", "cls.py", "both.py"):
        text = (root / name).read_text(encoding="utf-8")
        assert "langchain_core" not in text, text
        compile(text, name, "exec")
    # The import unused before stays; the blank line between the sections stays too.
    assert ruff_unused_imports(root) == {("fn.py", "`json` imported but unused")}
    assert (
        (root / "fn.py")
        .read_text(encoding="utf-8")
        .startswith("import json\n\nfrom toolwire import ToolResult\n")
    )
    sort = subprocess.run([RUFF, "check", "--isolated", "--select", "I", "."], cwd=root)
    assert sort.returncode == 0


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("", "\nassert tool is not None\n"),  # used elsewhere in the module
        ('__all__ = ["add", "tool"]\n\n', ""),  # exported
        ("", '\n\ndef make(factory: "tool") -> None:\n    pass\n'),  # a string annotation
        ("from langchain_core.tools import BaseTool\n", ""),  # already unused: stays
    ],
    ids=["used", "all", "string-annotation", "unused-before"],
)
def test_an_import_still_used_or_unused_before_stays(tmp_path: Path, head: str, tail: str) -> None:
    source = "from langchain_core.tools import tool\n" + head + "\n" + TOOL + tail
    root = _project(tmp_path, {"mod.py": source})
    before = ruff_unused_imports(root)
    _migrate(root)
    text = (root / "mod.py").read_text(encoding="utf-8")
    assert "@result_tool" in text
    if "BaseTool" in head:
        assert "from langchain_core.tools import BaseTool" in text
        assert "import tool\n" not in text
    else:
        assert "from langchain_core.tools import tool\n" in text
    assert ruff_unused_imports(root) == before


def test_a_package_init_keeps_its_imports(tmp_path: Path) -> None:
    """An `__init__` import may be a re-export that other modules use."""
    root = _project(tmp_path, {})
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from langchain_core.tools import tool\n\n" + textwrap.dedent(TOOL), encoding="utf-8"
    )
    _migrate(root)
    text = (pkg / "__init__.py").read_text(encoding="utf-8")
    assert "@result_tool" in text and "from langchain_core.tools import tool\n" in text


def test_the_example_agent_leaves_no_unused_import(tmp_path: Path) -> None:
    root = tmp_path / "agent"
    shutil.copytree(ROOT / "examples" / "agent", root)
    before = ruff_unused_imports(root)
    done = subprocess.run([TOOLWIRE, "migrate", "."], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "changed:" in done.stdout
    assert ruff_unused_imports(root) <= before


@pytest.mark.parametrize(
    ("tail", "kept"),
    [
        ("", 0),  # the name bound once and read once: proved from the text
        ("\n\ndef local() -> int:\n    tool = 1\n    return tool\n", 0),  # bound twice
        ("\n# tool: the decorator above\n", 0),  # still written after, in a comment
        (
            "\n\ndef late() -> object:\n"
            "    from langchain_core.tools import tool\n\n"
            "    return tool\n",
            1,  # the same import in a function, which still reads it
        ),
    ],
    ids=["proved", "rebound", "comment", "nested-import"],
)
def test_an_import_the_rewrite_emptied_goes_however_it_is_decided(
    tmp_path: Path, tail: str, kept: int
) -> None:
    """The text-and-ast proof and LibCST's scope analysis (where the proof cannot tell)
    remove the same import: the module-level one the rewrite left unread."""
    source = "from langchain_core.tools import tool\n\n" + TOOL + tail
    root = _project(tmp_path, {"mod.py": source})
    before = ruff_unused_imports(root)
    _migrate(root)
    text = (root / "mod.py").read_text(encoding="utf-8")
    assert "@result_tool" in text
    assert text.count("from langchain_core.tools import tool\n") == kept, text
    assert not text.startswith("from langchain_core.tools import tool\n"), text
    compile(text, "mod.py", "exec")
    assert ruff_unused_imports(root) == before
