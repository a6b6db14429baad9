"""The framework preset corpus: real modules with `# expect:` comments, per preset.

A case is a file `cases/<preset>/<name>.py`, or a ```python block of the section
"What `toolwire check` knows" of `docs/frameworks/<preset>.md`. A case with `# expect:`
comments is flagged, one without is clean. A page's examples show what `toolwire check`
does and run through the syntax layer. `# layers: syntax` on a line of its own limits
the case to the syntax layer (the framework is untyped there, or mypy has no hook for
the construct); every other case runs through both layers. `# xfail <layer>: <why>` says
that a layer does not meet the case yet, and why: the test is a strict xfail, so it fails
as soon as the layer does meet it and the marker is to go.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from toolwire.lint.model import frameworks

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = HERE / "cases"
DOCS = REPO / "docs" / "frameworks"
# Every framework preset, from the presets themselves (the one list of frameworks).
PRESETS = tuple(framework.preset for framework in frameworks())
LAYERS = ("syntax", "mypy")

_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>TW\d{3}(?:\s*,\s*TW\d{3})*)")
_LAYERS = re.compile(r"^#\s*layers:\s*(?P<layers>[a-z, ]+)$", re.M)
_XFAIL = re.compile(r"^#\s*xfail (?P<layer>[a-z]+):\s*(?P<why>.+)$", re.M)
_SECTION = re.compile(r"^## What `toolwire check` knows\n(?P<body>.*?)(?=^## |\Z)", re.M | re.S)
_PYTHON = re.compile(r"^```python[^\n`]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Case:
    preset: str
    name: str  # unique within the preset; also the module name in the test project
    source: str
    origin: str  # where a failing case is to be found

    @property
    def id(self) -> str:
        return f"{self.preset}:{self.name}"

    @property
    def flagged(self) -> bool:
        return bool(self.expected())

    @property
    def layers(self) -> tuple[str, ...]:
        match = _LAYERS.search(self.source)
        if match is None:
            return LAYERS
        named = tuple(part.strip() for part in match["layers"].split(","))
        assert set(named) <= set(LAYERS), f"{self.origin}: unknown layer in {named}"
        return named

    def xfail(self, layer: str) -> str | None:
        """Why `layer` does not meet this case yet, or None."""
        for match in _XFAIL.finditer(self.source):
            assert match["layer"] in LAYERS, f"{self.origin}: unknown layer {match['layer']}"
            if match["layer"] == layer:
                return match["why"]
        return None

    def expected(self) -> Counter[tuple[int, str]]:
        found: Counter[tuple[int, str]] = Counter()
        for number, text in enumerate(self.source.splitlines(), 1):
            match = _EXPECT.search(text)
            if match:
                found.update((number, code.strip()) for code in match["codes"].split(","))
        return found


def file_cases(preset: str) -> list[Case]:
    return [
        Case(preset, path.stem, path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
        for path in sorted((CASES / preset).glob("*.py"))
    ]


def docs_cases(preset: str) -> list[Case]:
    """The examples of the page's "What `toolwire check` knows" section."""
    page = DOCS / f"{preset}.md"
    text = page.read_text(encoding="utf-8")
    section = _SECTION.search(text)
    if section is None:
        return []
    found = []
    for number, block in enumerate(_PYTHON.finditer(section["body"]), 1):
        line = text[: section.start("body") + block.start()].count("\n") + 2
        origin = f"{page.relative_to(REPO)}:{line}"
        # The page shows what `toolwire check` does: its examples run through that layer.
        source = f"# layers: syntax\n{block['body']}"
        found.append(Case(preset, f"docs_{number}", source, origin))
    return found


def cases(preset: str) -> list[Case]:
    return file_cases(preset) + docs_cases(preset)


def all_cases() -> list[Case]:
    return [case for preset in PRESETS for case in cases(preset)]
