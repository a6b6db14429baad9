"""The text of each finding, from the `[messages]` table of its rule file.

Both layers word a finding the same way: the syntax layer fills `{value}` with the
source text it follows (`ToolResult result`), the mypy plugin with the type it sees
(`a ToolResult`).
"""

from __future__ import annotations

from functools import cache


@cache
def _template(code: str, key: str) -> str:
    from toolwire.lint.catalog import catalog

    try:
        return catalog()[code].messages[key]
    except Exception:  # a broken install must not stop a check: say what was found
        return f"{key}: {{value}}"


def message(code: str, key: str, **fields: str) -> str:
    """The message of finding `key` of rule `code` (without the code)."""
    return _template(code, key).format_map(_Fields(fields))


class _Fields(dict[str, str]):
    def __missing__(self, name: str) -> str:
        return f"{{{name}}}"
