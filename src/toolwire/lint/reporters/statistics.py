"""`toolwire check --statistics`: how many findings each code has, most first."""

from __future__ import annotations

import json as _json
from collections import Counter
from typing import TextIO

from toolwire.lint.catalog import catalog
from toolwire.lint.reporters.model import Report
from toolwire.lint.reporters.text import write_remarks


def counts(report: Report) -> list[tuple[int, str, str]]:
    """(count, code, rule name), by count and then code."""
    rules = catalog()
    found = Counter(f.code for f in report.findings)
    rows = [(n, code, rules[code].name if code in rules else "") for code, n in found.items()]
    return sorted(rows, key=lambda row: (-row[0], row[1]))


def text(report: Report, out: TextIO, err: TextIO) -> None:
    rows = counts(report)
    width = max((len(str(n)) for n, _, _ in rows), default=1)
    for n, code, name in rows:
        out.write(f"{n:>{width}}\t{code}\t{name}".rstrip() + "\n")
    write_remarks(report, err)


def json(report: Report, out: TextIO, err: TextIO) -> None:
    rows = [{"code": code, "name": name, "count": n} for n, code, name in counts(report)]
    _json.dump(rows, out, indent=2)
    out.write("\n")
