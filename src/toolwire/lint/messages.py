"""The text of each finding, from the `[messages]` table of its rule file.

Both layers word a finding the same way: the syntax layer fills `{value}` with the
source text it follows (`ToolResult result`), the mypy plugin with the type it sees
(`a ToolResult`).
"""

from __future__ import annotations

from functools import cache


@cache
def _template(code: str, key: str) -> str:
    try:
        return _messages(code)[key]
    except Exception:  # a broken install must not stop a check: say what was found
        return f"{key}: {{value}}"


@cache
def _messages(code: str) -> dict[str, str]:
    """The `[messages]` of one rule: its file's front matter alone, as the catalog reads
    it, so that a run with findings parses no other rule file (nor any example)."""
    from toolwire.lint.rulefiles import rules_path

    path = rules_path()
    if path is None:  # a zipped install: ask the catalog
        from toolwire.lint.catalog import catalog

        return dict(catalog()[code].messages)
    import tomllib

    text = (path / f"{code}.md").read_text(encoding="utf-8")
    if not text.startswith("+++\n"):
        raise ValueError(f"{code}.md has no front matter")
    meta = tomllib.loads(text[4 : text.index("\n+++\n", 4)])
    if meta.get("code") != code:
        raise ValueError(f"{code}.md: front matter says {meta.get('code')}")
    messages: dict[str, str] = meta.get("messages", {})
    return messages


def message(code: str, key: str, **fields: str) -> str:
    """The message of finding `key` of rule `code` (without the code)."""
    return _template(code, key).format_map(_Fields(fields))


class _Fields(dict[str, str]):
    def __missing__(self, name: str) -> str:
        return f"{{{name}}}"
