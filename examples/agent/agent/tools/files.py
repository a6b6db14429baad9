"""Lists a directory of an in-memory fake filesystem.

Already migrated by hand to the typed result (ADR-108): the listing goes to the
model as ``content``; the same listing as a TABLE artifact is run-only.
"""

from __future__ import annotations

from toolwire import ToolArtifact, ToolResult

from agent.tools.base import Tool

_FILES: dict[str, str] = {
    "/docs/guide.md": "# Guide\n\nStart with the tool loop.\n",
    "/docs/changelog.md": "## 0.1.0\n\n- first release\n",
    "/src/agent.py": "print('hello')\n",
    "/src/tools/records.py": "ROWS = []\n",
    "/README.md": "An example.\n",
}


class FileListTool(Tool):
    name = "list_files"
    description = "Lists the files and directories directly under 'path'."

    # Tool.execute still says `-> str`; this override is ahead of it (half migrated).
    def execute(self, arguments: dict[str, str]) -> ToolResult:  # type: ignore[override, unused-ignore]
        path = "/" + arguments.get("path", "/").strip().strip("/")
        prefix = path.rstrip("/") + "/"
        entries: dict[str, int | None] = {}
        for file_path, body in _FILES.items():
            if not file_path.startswith(prefix):
                continue
            head, _, tail = file_path[len(prefix) :].partition("/")
            entries[head + "/" if tail else head] = None if tail else len(body.encode())
        if not entries:
            return ToolResult.error(f"Error: no such directory {path!r}")
        rows = [
            [name, "-" if size is None else str(size)] for name, size in sorted(entries.items())
        ]
        lines = [f"{name}  {size}" if size != "-" else name for name, size in rows]
        listing = f"{path} ({len(rows)} entries)\n" + "\n".join(lines)
        return ToolResult.text(listing, ToolArtifact.table("Files", ["name", "size"], rows))
