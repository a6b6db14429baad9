"""Queries an in-memory table of employee records and formats them as a text table."""

from __future__ import annotations

from agent.tools.base import Tool

_COLUMNS = ("id", "name", "department", "city")
_EMPLOYEES: list[dict[str, str]] = [
    {"id": "1", "name": "Ada Lovelace", "department": "engineering", "city": "London"},
    {"id": "2", "name": "Grace Hopper", "department": "engineering", "city": "Arlington"},
    {"id": "3", "name": "Katherine Johnson", "department": "research", "city": "Hampton"},
    {"id": "4", "name": "Hedy Lamarr", "department": "research", "city": "Vienna"},
    {"id": "5", "name": "Joan Clarke", "department": "security", "city": "London"},
]


class RecordsTool(Tool):
    name = "records"
    description = "Lists employee records filtered by 'department'/'city', sorted by 'sort'."

    def execute(self, arguments: dict[str, str]) -> str:
        sort_key = arguments.get("sort", "id")
        if sort_key not in _COLUMNS:
            return f"Error: cannot sort by {sort_key!r}; columns are {', '.join(_COLUMNS)}"
        rows = [
            row
            for row in _EMPLOYEES
            if all(
                row[column] == arguments[column]
                for column in ("department", "city")
                if arguments.get(column)
            )
        ]
        if not rows:
            return "No records match."
        rows.sort(key=lambda row: (row[sort_key], int(row["id"])))
        return self._format(rows)

    def _format(self, rows: list[dict[str, str]]) -> str:
        widths = [max(len(column), *(len(row[column]) for row in rows)) for column in _COLUMNS]
        header = (column.ljust(width) for column, width in zip(_COLUMNS, widths, strict=True))
        lines = ["  ".join(header).rstrip(), "  ".join("-" * width for width in widths)]
        for row in rows:
            cells = (row[c].ljust(width) for c, width in zip(_COLUMNS, widths, strict=True))
            lines.append("  ".join(cells).rstrip())
        lines.append(f"({len(rows)} row{'' if len(rows) == 1 else 's'})")
        return "\n".join(lines)
