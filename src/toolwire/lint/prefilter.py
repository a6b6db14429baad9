"""The one text pre-filter: cheap tests on a file's text that say whether toolwire can have
anything to say about it, so that most files are never analysed, or never parsed.

Every test is built from the same names of the config: the result and artifact classes,
the tool methods (with the framework presets' methods and decorators), tool bases, the
sinks, and the tool classes a migration run knows of. A false hit only costs a parse
and the parse decides; a miss is never allowed, so every test is a superset of what its
job can find.

- `toolwire check` parses every file, because a file it cannot parse is a TW000 (a gate
  does not skip what it cannot read); `may_find` then says whether to analyse it.
- `toolwire migrate` runs `may_migrate` and `may_rewire` on the bytes before it decodes
  or parses anything: a file without a candidate is never parsed, never reported, never
  written (docs/migrate-command.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from toolwire.lint.config import Config

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FEW = 8  # up to this many known tool names, one regex; beyond, a set of the identifiers
_RUN = re.compile(r"[A-Za-z0-9_]+")
_MANY = 32  # past this many keys, search the text's distinct words instead of the text


def named_in(text: str, keys: Sequence[str]) -> Iterator[str]:
    """The keys that occur in `text`, as `key in text` says, lazily.

    A key made of identifier characters only can occur only inside one run of them, so
    with many keys each is looked for in the text's distinct runs, one a line: a text a
    few times shorter than a module, which names its classes and helpers again and again.
    """
    if len(keys) <= _MANY:
        yield from (key for key in keys if key in text)
        return
    plain = []
    for key in keys:
        if _RUN.fullmatch(key) is None:
            if key in text:
                yield key
        else:
            plain.append(key)
    if plain:
        words = _words(text)
        yield from (key for key in plain if key in words)


_last: list[str] = ["", ""]  # the text last asked about, and its words


def _words(text: str) -> str:
    """The distinct runs of identifier characters of `text`, one a line; the last text's
    are kept, which a module's filter and then its units' both ask for."""
    if _last[0] is not text:
        _last[:] = [text, "\n".join(set(_RUN.findall(text)))]
    return _last[1]


def _quoted(text: str, value: str) -> bool:
    """`value` between quotes (either kind, each side) somewhere in `text`: one search for
    the value and a look at its neighbours, not four for its quoted forms (a quote, so
    common in code, is a slow first character to search for)."""
    end = len(value)
    at = text.find(value)
    while at >= 0:
        if at and text[at - 1] in "\"'" and text[at + end : at + end + 1] in ('"', "'"):
            return True
        at = text.find(value, at + 1)
    return False


class Prefilter(NamedTuple):  # not a dataclass: cheaper to build at start-up
    """The text searches that rule out a module (or a unit) in which no check can fire."""

    markers: tuple[str, ...]  # substrings one of which a module with a finding names
    tools: re.Pattern[bytes] | None
    tool_extra: tuple[bytes, ...]
    sinks: re.Pattern[str] | None  # a wire sink called
    # Plain substrings are searched by `in`, far faster than inside one regex:
    said: tuple[str, ...]  # a message sink's value, to be found quoted (`"tool"`, `'tool'`)
    sources: re.Pattern[str] | None  # a tool method called (`.run(`)
    results: tuple[str, ...]  # a result class, or one of a few known tool classes
    names: frozenset[str]  # known tool classes, when there are too many for one regex
    shaped: bool = False  # the markers hold the presets' tool shapes (TW101)
    # a tool method named after a dot, whatever lies between (`x.run(`, `x.\\\n run`)
    calls: re.Pattern[str] | None = None
    methods: frozenset[str] = frozenset()  # the tool method names `calls` looks for

    @classmethod
    @functools.lru_cache(maxsize=64)
    def of(cls, config: Config, known_tools: frozenset[str] = frozenset()) -> Prefilter:
        from toolwire.lint.model import index, shapes_for

        results = [c.rpartition(".")[2] for c in config.result_classes]
        shapes = shapes_for(config.presets)
        # TW101 on a framework's tool function: its decorator or factory is named
        shaped = shapes.words if config.enabled("TW101") else ()
        known = frozenset(t.rpartition(".")[2] for t in known_tools)
        model = index(config.model)
        named = [
            *config.result_names,
            *config.artifact_classes,
            *config.tool_bases,
            *model.source_owners,
        ]
        markers = tuple(
            dict.fromkeys(
                (
                    *(n.rpartition(".")[2] for n in [*named, *sorted(known_tools)]),
                    *(f"def {m}" for m in config.tool_methods),
                    *model.source_methods,
                    *sorted(model.run_only),
                    # a run-only slot (docs/model.md): a class, or a tool's pair set-up
                    *(
                        a.partition(":")[0].rpartition(".")[2]
                        for a in config.model.run_only_arguments
                    ),
                    # a function whose return a framework takes (`add_node`, `after_tool_call`)
                    *(
                        a.partition(":")[0].rpartition(".")[2]
                        for a in (*config.model.state_returns, *config.model.wire_returns)
                    ),
                    *(p.partition("=")[2] for p in config.model.content_and_artifact),
                    *shaped,
                )
            )
        )
        methods = "|".join(
            re.escape(m) for m in dict.fromkeys([*config.tool_methods, *shapes.methods])
        )
        # No leading `\b`: a literal prefix lets `re` skip ahead fast.
        parts = [rf"def\s+(?:{methods})\b"] if methods else []
        if shapes.words:
            parts.append(rf"\b(?:{'|'.join(re.escape(w) for w in shapes.words)})\b")
        sink_parts = [rf"{re.escape(s.target.rpartition('.')[2])}\s*\(" for s in config.wire_sinks]
        said = [s.value for s in config.message_sinks]
        few = [*results, *known] if len(known) <= _FEW else results
        return cls(
            markers=markers,
            tools=re.compile("|".join(parts).encode()) if parts else None,
            # a framework's tool shape may hand over an imported function, which migrate
            # names (codemods/tool-returns.md): such a module need not say `str`
            tool_extra=(
                b"str",
                *(r.encode() for r in results),
                *((b"import",) if shapes.words else ()),
            ),
            sinks=re.compile("|".join(sink_parts)) if sink_parts else None,
            said=tuple(dict.fromkeys(said)),
            sources=re.compile(rf"\.\s*(?:{methods})\s*\(") if methods else None,
            results=tuple(dict.fromkeys(few)),
            names=known if len(known) > _FEW else frozenset(),
            shaped=bool(shaped),
            calls=re.compile(rf"\.(?:\s|\\|#[^\n]*\n)*(?:{methods})\b") if methods else None,
            methods=frozenset([*config.tool_methods, *shapes.methods]),
        )

    def may_find(self, text: str) -> bool:
        """False: no check can fire in this module (or in one top-level unit of it)."""
        return any(named_in(text, self.markers))

    def may_migrate(self, data: bytes) -> bool:
        """tool-returns: a tool method or a framework's tool, and a `str` to move."""
        return bool(self.tools and self.tools.search(data)) and any(
            word in data for word in self.tool_extra
        )

    def quiet(self, data: bytes) -> bool:
        """Nothing for wire-content here, whatever tool classes the run knows, as long as
        they are too many to be among `results` (`_FEW`): then a known class counts only
        after a tool method's name (`calls`), and so does a tool method called (`sources`,
        a dict's tool in `dict_calls`), and no such name follows a dot here."""
        text = data.decode("latin-1")
        return not (self._said(text) or (self.calls is not None and self.calls.search(text)))

    def _said(self, text: str) -> bool:
        """A result class (or one of a few known tools), a message value or a sink is named."""
        if any(word in text for word in self.results) or any(_quoted(text, s) for s in self.said):
            return True
        return self.sinks is not None and self.sinks.search(text) is not None

    def may_rewire(self, data: bytes | str) -> bool:
        """wire-content: a sink is named, or something that can be a result, which may be
        rewritten (`str(`) or left for review (used as text)."""
        # The patterns are ASCII, so latin-1 never fails on bytes and never lies.
        text = data.decode("latin-1") if isinstance(data, bytes) else data
        if self._said(text):
            return True
        if self.sources is not None and self.sources.search(text):
            return True
        # An instance of a known tool class gives a result only where one of its tool
        # methods is called (analysis/flow_calls.py), so a module that merely names the
        # class (imports it, lists it) has nothing to rewire.
        if not self.names or self.calls is None or not self.calls.search(text):
            return False
        return not self.names.isdisjoint(_IDENTIFIER.findall(text))
