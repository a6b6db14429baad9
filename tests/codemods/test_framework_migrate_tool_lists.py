"""Tool lists written as a constant of the module (`Agent(tools=TOOLS)`): check and migrate
agree, through the real `toolwire check` and `toolwire migrate`, and the migrated tools
give the model the same text through a real pydantic-ai agent run (its `FunctionModel`).

A constant is followed only when it is provably fixed; every other list stays as it is,
named by migrate with why, and TW101 does not claim its functions either.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from codemod_helpers import tw101_findings
from test_framework_migrate import _load, _migrate
from test_framework_migrate_shapes import _call

pytest.importorskip("pydantic_ai")

TOOLS = '''
    from pydantic_ai import Agent


    def shout(text: str) -> str:
        """Shout the text."""
        return text.upper()


    def whisper(text: str) -> str:
        """Whisper the text."""
        return text.lower()


    def stamp(text: str) -> str:
        """Stamp the text."""
        return f"[{text}]"


    def helper(text: str) -> str:
        """Not a tool: in no list."""
        return text.strip()


    BASE = (shout,)
    TOOLS = [*BASE, whisper]
    agent = Agent("test", deps_type=str, tools=[*TOOLS, stamp])
    PROMPT = helper(" hi ")
'''


def _project(root: Path, source: str) -> Path:
    (root / "pyproject.toml").write_text(
        '[tool.toolwire]\npresets = ["pydantic-ai"]\n', encoding="utf-8"
    )
    path = root / "tools.py"
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


def _flagged(root: Path) -> set[str]:
    return {f["message"].split("()")[0].removeprefix("tool ") for f in tw101_findings(root)}


def test_a_fixed_constant_list_is_followed_by_check_and_migrate(tmp_path: Path) -> None:
    path = _project(tmp_path, TOOLS)
    assert _flagged(tmp_path) == {"shout", "whisper", "stamp"}

    [module] = _load(tmp_path, ["tools.py"])
    calls = [("shout", {"text": "hi"}), ("whisper", {"text": "HI"}), ("stamp", {"text": "x"})]
    before = {name: _call(module, name, args).content for name, args in calls}
    assert before == {"shout": "HI", "whisper": "hi", "stamp": "[x]"}

    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 3, summary
    assert summary["skipped"] == []
    assert tw101_findings(tmp_path) == []
    source = path.read_text(encoding="utf-8")
    assert "def helper(text: str) -> str:" in source  # in no list: untouched

    [module] = _load(tmp_path, ["tools.py"])
    for name, args in calls:
        part = _call(module, name, args)
        assert (part.content, part.outcome) == (before[name], "success"), name


UNFOLLOWED = {
    "appended": ("TOOLS = [shout]\nTOOLS.append(whisper)\n", "`TOOLS` may be changed"),
    "item set": ("TOOLS = [shout]\nTOOLS[0] = whisper\n", "`TOOLS` may be changed"),
    "handed on": (
        "TOOLS = [shout]\nregister(TOOLS)\n",
        "`TOOLS` may be changed: `TOOLS` is handed to `register(...)`",
    ),
    "bound twice": ("TOOLS = [shout]\nTOOLS = [whisper]\n", "bound more than once"),
    "augmented": ("TOOLS = (shout,)\nTOOLS += (whisper,)\n", "bound more than once"),
    "built": ("TOOLS = list((shout, whisper))\n", "not a list or tuple written at the top"),
    "conditional": (
        "if register:\n    TOOLS = [shout]\nelse:\n    TOOLS = [whisper]\n",
        "not a list or tuple written at the top",
    ),
    "shadowed": (
        "TOOLS = [shout]\n\n\ndef build() -> object:\n    TOOLS = [whisper]\n"
        '    return Agent("test", tools=TOOLS)\n',
        "bound more than once",
    ),
}


@pytest.mark.parametrize("form", sorted(UNFOLLOWED))
def test_a_list_not_provably_fixed_is_named_by_migrate_and_not_claimed_by_check(
    tmp_path: Path, form: str
) -> None:
    definition, why = UNFOLLOWED[form]
    source = (
        "from pydantic_ai import Agent\n\n\n"
        "def shout(text: str) -> str:\n    return text.upper()\n\n\n"
        "def whisper(text: str) -> str:\n    return text.lower()\n\n\n"
        "def register(tools: list[object]) -> None:\n    tools.clear()\n\n\n"
        f'{definition}agent = Agent("test", tools=TOOLS)\n'
    )
    path = tmp_path / "tools.py"
    _project(tmp_path, "")
    path.write_text(source, encoding="utf-8")
    assert tw101_findings(tmp_path) == []
    done = _migrate(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["methods_migrated"] == 0
    reasons = [s["reason"] for s in summary["skipped"]]
    assert reasons and all(why in r for r in reasons), reasons
    assert path.read_text(encoding="utf-8") == source
