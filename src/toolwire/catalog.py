"""The rule catalog, read from the Markdown files in `rules/` (shipped as `toolwire/_rules`).

A rule file is TOML front matter between `+++` lines, then Markdown. Fenced blocks whose
info string is `python flagged`, `python clean`, `python before` or `python after` are the
rule's examples; `layers=syntax,mypy` on the info string narrows an example to some layers.
A flagged line carries `# expect: TW301` (several codes separated by commas).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

FAMILIES = ("migrate", "construct", "stringify", "wire", "artifact")
LAYERS = ("syntax", "mypy", "codemod")
EXAMPLE_KINDS = ("flagged", "clean", "before", "after")
_FENCE = re.compile(r"^```python[ \t]+(?P<info>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.M | re.S)
_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>TW\d{3}(?:\s*,\s*TW\d{3})*)")


@dataclass(frozen=True, slots=True)
class Example:
    kind: str
    code: str
    layers: tuple[str, ...]
    line: int  # where the code starts in the Markdown file

    def expected(self) -> list[tuple[int, str]]:
        """(line, code) pairs promised by `# expect:` comments, 1-based lines."""
        found = []
        for number, text in enumerate(self.code.splitlines(), 1):
            match = _EXPECT.search(text)
            if match:
                found += [(number, c.strip()) for c in match["codes"].split(",")]
        return found


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    family: str
    summary: str
    layers: tuple[str, ...]
    fix: str | None
    body: str
    examples: tuple[Example, ...] = ()
    config: Mapping[str, Any] = field(default_factory=dict)
    messages: Mapping[str, str] = field(default_factory=dict)  # finding -> text, both layers
    example_module: str = ""  # the module name the examples are checked as
    source: str = ""

    @property
    def mypy_error_code(self) -> str:
        return f"toolwire-{self.family}" if self.family in FAMILIES else "toolwire"

    def section(self, title: str) -> str:
        """The Markdown under `## title`, up to the next `## ` heading."""
        match = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", self.body, re.M | re.S)
        return match.group(1).strip() if match else ""

    def examples_of(self, kind: str, layer: str) -> list[Example]:
        return [e for e in self.examples if e.kind == kind and layer in e.layers]


class CatalogError(Exception):
    pass


def rules_dir() -> Traversable:
    """The installed copy of `rules/`, or the checkout's when running from source."""
    packaged = resources.files("toolwire").joinpath("_rules")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "rules"
    if checkout.is_dir():
        return checkout
    raise CatalogError("the rule catalog is missing: reinstall toolwire")


def parse_rule(text: str, source: str = "") -> Rule:
    if not text.startswith("+++\n"):
        raise CatalogError(f"{source}: a rule file starts with '+++' TOML front matter")
    end = text.index("\n+++\n", 4)
    try:
        meta = tomllib.loads(text[4:end])
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{source}: bad front matter: {exc}") from None
    body = text[end + 5 :]
    layers = tuple(meta.get("layers", ()))
    examples = []
    offset = text[: end + 5].count("\n")
    for match in _FENCE.finditer(body):
        words = match["info"].split()
        kind = words[0] if words else ""
        if kind not in EXAMPLE_KINDS:
            continue
        narrowed = layers
        for word in words[1:]:
            if word.startswith("layers="):
                narrowed = tuple(w for w in word[7:].split(",") if w)
        line = offset + body[: match.start("code")].count("\n") + 1
        examples.append(Example(kind, match["code"], narrowed, line))
    try:
        return Rule(
            code=meta["code"],
            name=meta["name"],
            family=meta["family"],
            summary=meta["summary"],
            layers=layers,
            fix=meta.get("fix"),
            body=body,
            examples=tuple(examples),
            config=meta.get("config", {}),
            messages=meta.get("messages", {}),
            example_module=meta.get("example-module", ""),
            source=source,
        )
    except KeyError as exc:
        raise CatalogError(f"{source}: front matter lacks {exc.args[0]!r}") from None


@cache
def catalog() -> dict[str, Rule]:
    """Every rule by code, in code order."""
    rules = {}
    for entry in sorted(rules_dir().iterdir(), key=lambda e: e.name):
        if re.fullmatch(r"TW\d{3}\.md", entry.name):
            rule = parse_rule(entry.read_text(encoding="utf-8"), entry.name)
            if rule.code != entry.name[:-3]:
                raise CatalogError(f"{entry.name}: front matter says {rule.code}")
            rules[rule.code] = rule
    return rules


def nearest(code: str, limit: int = 3) -> list[str]:
    """Codes that look like `code`, for 'did you mean' messages."""
    codes = list(catalog())
    wanted = code.upper()
    close = difflib.get_close_matches(wanted, codes, n=limit, cutoff=0.5)
    if not close and wanted[:3] in {c[:3] for c in codes}:
        close = [c for c in codes if c[:3] == wanted[:3]][:limit]
    return close
