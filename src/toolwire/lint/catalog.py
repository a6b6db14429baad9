"""The rule catalog, read from the Markdown files in `rules/` (shipped as `toolwire/lint/_rules`).

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
from typing import TYPE_CHECKING, Any

from toolwire.lint.rulefiles import rules_path

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

FAMILIES = ("migrate", "construct", "stringify", "wire", "artifact")
LAYERS = ("syntax", "mypy", "codemod")
EXAMPLE_KINDS = ("flagged", "clean", "before", "after")
_FENCE = re.compile(
    r"^```(?P<lang>python|toml)[ \t]+(?P<info>[^\n]*)\n(?P<code>.*?)^```[ \t]*$", re.M | re.S
)
_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>TW\d{3}(?:\s*,\s*TW\d{3})*)")


def expectations(source: str) -> list[tuple[int, str]]:
    """(line, code) pairs promised by `# expect: TWnnn[, TWnnn]` comments, 1-based lines."""
    found = []
    for number, text in enumerate(source.splitlines(), 1):
        match = _EXPECT.search(text)
        if match:
            found += [(number, c.strip()) for c in match["codes"].split(",")]
    return found


@dataclass(frozen=True, slots=True)
class Example:
    """A fenced example. `number` counts the examples of its kind in its file, from 1;
    `options` are the info string's other `key=value` words; `config` is what a
    ```` ```toml config ```` block just before a `before` example lays over the file's."""

    kind: str
    code: str
    layers: tuple[str, ...]
    line: int  # where the code starts in the Markdown file
    source: str = ""  # the file's code (`TW301`) or name
    number: int = 0
    options: Mapping[str, str] = field(default_factory=dict)
    config: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """`TW301-flagged-2`: the name of this example in every layer's tests."""
        return f"{self.source}-{self.kind}-{self.number}"

    def expected(self) -> list[tuple[int, str]]:
        return expectations(self.code)


def front_matter(text: str, source: str = "") -> tuple[dict[str, Any], str, int]:
    """(the `+++` TOML front matter, the Markdown after it, how many lines that starts at)."""
    if not text.startswith("+++\n"):
        raise CatalogError(f"{source}: a rule file starts with '+++' TOML front matter")
    end = text.index("\n+++\n", 4)
    try:
        meta = tomllib.loads(text[4:end])
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{source}: bad front matter: {exc}") from None
    return meta, text[end + 5 :], text[: end + 5].count("\n")


def read_examples(
    body: str, offset: int, layers: tuple[str, ...], source: str = ""
) -> tuple[Example, ...]:
    """The examples of a rule or codemod file's Markdown (`offset`: lines before `body`)."""
    examples = []
    numbers: dict[str, int] = {}
    pending: dict[str, Any] = {}
    for match in _FENCE.finditer(body):
        words = match["info"].split()
        kind = words[0] if words else ""
        if match["lang"] == "toml":
            if kind == "config":
                pending = tomllib.loads(match["code"])
            continue
        if kind not in EXAMPLE_KINDS:
            continue
        options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        narrowed = layers
        if "layers" in options:
            narrowed = tuple(w for w in options.pop("layers").split(",") if w)
        numbers[kind] = numbers.get(kind, 0) + 1
        line = offset + body[: match.start("code")].count("\n") + 1
        config = pending if kind == "before" else {}
        if kind == "after":
            pending = {}
        examples.append(
            Example(kind, match["code"], narrowed, line, source, numbers[kind], options, config)
        )
    return tuple(examples)


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
    default: bool = True  # on unless `select` is set; `default = false`: only when selected

    @property
    def mypy_error_code(self) -> str:
        return f"toolwire-{self.family}" if self.family in FAMILIES else "toolwire"

    def section(self, title: str) -> str:
        """The Markdown under `## title`, up to the next `## ` heading."""
        match = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", self.body, re.M | re.S)
        return match.group(1).strip() if match else ""

    def examples_of(self, kinds: str | tuple[str, ...], layer: str) -> list[Example]:
        """The examples of these kinds that `layer` claims, in file order."""
        wanted = (kinds,) if isinstance(kinds, str) else kinds
        return [e for e in self.examples if e.kind in wanted and layer in e.layers]


def examples(kinds: str | tuple[str, ...], layer: str) -> list[tuple[Rule, Example]]:
    """Every example of these kinds that `layer` claims, in catalog order: what each
    layer's tests run."""
    return [(rule, e) for rule in catalog().values() for e in rule.examples_of(kinds, layer)]


class CatalogError(Exception):
    pass


def rules_dir() -> Traversable:
    """The installed copy of `rules/`, or the checkout's when running from source."""
    path = rules_path()
    if path is not None:
        return path
    from importlib import resources  # a zipped install only

    packaged = resources.files("toolwire.lint").joinpath("_rules")
    if packaged.is_dir():
        return packaged
    raise CatalogError("the rule catalog is missing: reinstall toolwire")


def parse_rule(text: str, source: str = "") -> Rule:
    meta, body, offset = front_matter(text, source)
    layers = tuple(meta.get("layers", ()))
    examples = read_examples(body, offset, layers, meta.get("code", source))
    try:
        return Rule(
            code=meta["code"],
            name=meta["name"],
            family=meta["family"],
            summary=meta["summary"],
            layers=layers,
            fix=meta.get("fix"),
            body=body,
            examples=examples,
            config=meta.get("config", {}),
            messages=meta.get("messages", {}),
            example_module=meta.get("example-module", ""),
            source=source,
            default=meta.get("default", True),
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
