"""The manual step after `toolwire migrate`: the records tool's rows become a TABLE artifact.

    python examples/table_artifact.py DIR      # DIR: a copy of examples/agent, migrated

The codemod can only wrap what a tool returned (`ToolResult.text(self._format(rows))`):
the whole text table still goes to the model. Deciding that the rows are run-only data
is a person's call. This script makes it the way docs/migration.md describes: the rows
travel as `ToolArtifact.table(...)`, the content is a short summary, and a bad sort key
is a `ToolResult.error`. It also updates the example's tests that read the old table
and adds one that checks the artifact. It edits by exact anchors and refuses (exit 1)
when the files do not look like migrated examples/agent, so it never half-applies.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

RECORDS = "agent/tools/records.py"
TESTS = "tests/test_tools.py"
NEW_TEST = "tests/test_records_artifact.py"

SUMMARY = '''

def _summary(rows: list[dict[str, str]], arguments: dict[str, str], sort_key: str) -> str:
    """What the model reads: how many rows matched and whose they are, not the table."""
    filters = [f"{c}={arguments[c]}" for c in ("department", "city") if arguments.get(c)]
    where = f" with {', '.join(filters)}" if filters else ""
    names = ", ".join(f"{row['name']} (id {row['id']})" for row in rows)
    noun = "record" if len(rows) == 1 else "records"
    shown = "The table is shown to the user."
    return f"{len(rows)} {noun}{where}, sorted by {sort_key}: {names}. {shown}"
'''
RETURN_TABLE = """\
        table = ToolArtifact.table(
            "Employee records", list(_COLUMNS), [[row[c] for c in _COLUMNS] for row in rows]
        )
        return ToolResult.text(_summary(rows, arguments, sort_key), table)
"""
RECORD_TESTS = """\
def test_records_summary(loop: ToolLoop) -> None:
    # The rows travel as a TABLE artifact now; the model reads a short summary.
    assert call(loop, "records", department="research", sort="name").content == (
        "2 records with department=research, sorted by name: "
        "Hedy Lamarr (id 4), Katherine Johnson (id 3). The table is shown to the user."
    )


def test_records_filters(loop: ToolLoop) -> None:
    assert call(loop, "records", city="London").content.startswith("2 records with city=London,")
    assert call(loop, "records").content.startswith("5 records, sorted by id: Ada Lovelace")
    assert call(loop, "records", department="security").content.startswith("1 record with")


"""
ARTIFACT_TESTS = '''\
"""The records tool after the manual step: the rows are run-only, the model gets a summary."""

from __future__ import annotations

import json

from toolwire import ArtifactType, ToolResult

from agent.app import build_loop
from agent.loop import ToolCall
from agent.tools.records import RecordsTool


def test_rows_are_a_table_artifact() -> None:
    # The tool itself, not through the loop's seam: only it shows the run-only artifacts.
    tool = RecordsTool()
    result = tool.execute({"department": "research", "sort": "name"})  # toolwire: ignore[TW303]
    assert isinstance(result, ToolResult)
    assert not result.is_error
    (table,) = result.artifacts
    assert table.type == ArtifactType.TABLE
    assert table.label == "Employee records"
    assert table.data == {
        "columns": ["id", "name", "department", "city"],
        "rows": [
            ["4", "Hedy Lamarr", "research", "Vienna"],
            ["3", "Katherine Johnson", "research", "Hampton"],
        ],
    }


def test_the_table_never_reaches_the_wire() -> None:
    transcript = build_loop().run([ToolCall("call_1", "records", {"department": "research"})])
    wire = json.dumps([message.to_provider() for message in transcript])
    # The cities are only in the table; the summary names people, not places.
    assert "Vienna" not in wire
    assert "Hampton" not in wire
    assert "Katherine Johnson (id 3)" in wire


def test_a_bad_sort_key_is_an_error_without_artifacts() -> None:
    result = RecordsTool().execute({"sort": "salary"})  # toolwire: ignore[TW303]
    assert result.is_error
    assert result.artifacts == ()
'''


class NotApplicable(Exception):
    pass


def _replace_once(text: str, old: str, new: str, where: str) -> str:
    count = text.count(old)
    if count != 1:
        found = "not found" if count == 0 else f"found {count} times"
        raise NotApplicable(f"{where}: expected text {found}: {old.strip()[:70]!r}")
    return text.replace(old, new)


def new_records(text: str) -> str:
    text = _replace_once(
        text,
        "and formats them as a text table.",
        "; the rows travel as a TABLE artifact.",
        RECORDS,
    )
    text = _replace_once(
        text,
        "from toolwire import ToolResult\n",
        "from toolwire import ToolArtifact, ToolResult\n",
        RECORDS,
    )
    # migrate's error-markers made it an error already; it splits the line at 88 columns
    if not re.search(r'return ToolResult\.error\(\s*f"Error: cannot sort by', text):
        text = _replace_once(
            text,
            'return ToolResult.text(f"Error: cannot sort by',
            'return ToolResult.error(f"Error: cannot sort by',
            RECORDS,
        )
    # The text-table helper goes: its rows are the artifact now.
    head, sep, tail = text.partition("        return ToolResult.text(self._format(rows))\n")
    if not sep or not tail.lstrip("\n").startswith("    def _format("):
        raise NotApplicable(f"{RECORDS}: `return ToolResult.text(self._format(rows))` not found")
    return head + RETURN_TABLE + SUMMARY


def new_tests(text: str) -> str:
    start = text.find("def test_records_table(")
    end = text.find("def test_records_errors(")
    if start < 0 or end < start:
        raise NotApplicable(f"{TESTS}: test_records_table/test_records_errors not found")
    return text[:start] + RECORD_TESTS + text[end:]


def apply(root: Path) -> dict[str, tuple[str, str]]:
    """{relative path: (before, after)}; writes nothing if any file does not match."""
    records, tests = root / RECORDS, root / TESTS
    if (root / NEW_TEST).exists():
        raise NotApplicable(f"{NEW_TEST} already exists: the step was applied already")
    before = {RECORDS: records.read_text(encoding="utf-8"), TESTS: tests.read_text("utf-8")}
    after = {RECORDS: new_records(before[RECORDS]), TESTS: new_tests(before[TESTS])}
    changes = {name: (before[name], after[name]) for name in before}
    changes[NEW_TEST] = ("", ARTIFACT_TESTS)
    for name, (_, text) in changes.items():
        (root / name).write_text(text, encoding="utf-8")
    return changes


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = Path(argv[0])
    try:
        changes = apply(root)
    except (NotApplicable, OSError) as exc:
        print(f"table_artifact: {exc}", file=sys.stderr)
        return 1
    for name, (old, new) in changes.items():
        sys.stdout.writelines(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"a/{name}" if old else "/dev/null",
                f"b/{name}",
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
