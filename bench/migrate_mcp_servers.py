"""Real MCP server packages, migrated with `presets = ["mcp"]` and called before and after.

    python bench/migrate_mcp_servers.py [--json]

The reference servers `mcp-server-git`, `mcp-server-time` and `mcp-server-fetch` (pinned
below, from the package index) are built on the MCP SDK 2.x `MCPServer`. toolwire's test
extra stays on mcp 1.x, which the other frameworks' tests run against, so this is a bench
with its own venv (under the bench cache: the servers, their dependencies and toolwire
from this checkout, editable), not a test.

For each package, its source tree (`pip download --no-deps`) is copied twice; one copy
is migrated by the real `toolwire migrate` with the preset alone. A driver then builds
each server from each copy (the package's own `create_server`) and, through the SDK's
client over the legacy JSON-RPC handshake (`Client(server, mode="legacy")`, in memory),
lists the tools and calls every one of them with the same arguments: successes and
failures (a missing branch, a bad path, a 404, an unknown timezone). Compared: the tool
listing (name, description, input and output schema, annotations) and, per call, the
content blocks the model reads, `isError` and `structuredContent`.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from _common import ROOT, venv

TOOLWIRE = shutil.which("toolwire") or str(Path(sys.executable).with_name("toolwire"))
SERVERS = {
    "mcp_server_git": "mcp-server-git==2026.10.19",
    "mcp_server_time": "mcp-server-time==2026.10.19",
    "mcp_server_fetch": "mcp-server-fetch==2026.10.24",
}

# Runs in the servers' venv with one copy of the trees first on sys.path.
DRIVER = r"""
import asyncio, json, os, subprocess, sys, threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

tree, work, port = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, tree)
from mcp import Client
import mcp_server_fetch.server as fetch_server
import mcp_server_git.server as git_server
import mcp_server_time.server as time_server

# A repository whose hashes and dates are the same on every run.
FIXED = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org",
         "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org",
         "GIT_AUTHOR_DATE": "2024-01-02T03:04:05+0000",
         "GIT_COMMITTER_DATE": "2024-01-02T03:04:05+0000"}
os.environ.update(FIXED)
repo = work / "repo"
subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
    subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
(repo / "a.txt").write_text("alpha\n")
subprocess.run(["git", "-C", str(repo), "add", "a.txt"], check=True)
subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "initial"], check=True)
(repo / "a.txt").write_text("alpha\nbeta\n")
r = str(repo)

site = work / "site"
site.mkdir()
(site / "page.html").write_text(
    "<html><head><title>T</title></head><body><h1>Hello</h1>"
    "<p>" + "A paragraph of text. " * 20 + "</p></body></html>")
handler = partial(SimpleHTTPRequestHandler, directory=str(site))
handler.log_message = lambda *a: None
httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{port}"

SERVERS = {
    "mcp_server_git": (git_server.create_server(repo), [
        ("git_status", {"repo_path": r}),
        ("git_diff_unstaged", {"repo_path": r}),
        ("git_add", {"repo_path": r, "files": ["a.txt"]}),
        ("git_diff_staged", {"repo_path": r}),
        ("git_commit", {"repo_path": r, "message": "second"}),
        ("git_commit", {"repo_path": r, "message": "nothing staged"}),
        ("git_log", {"repo_path": r, "max_count": 5}),
        ("git_create_branch", {"repo_path": r, "branch_name": "feature"}),
        ("git_checkout", {"repo_path": r, "branch_name": "feature"}),
        ("git_checkout", {"repo_path": r, "branch_name": "no-such-branch"}),
        ("git_branch", {"repo_path": r, "branch_type": "local"}),
        ("git_show", {"repo_path": r, "revision": "HEAD"}),
        ("git_show", {"repo_path": r, "revision": "deadbeef"}),
        ("git_diff", {"repo_path": r, "target": "HEAD~1"}),
        ("git_reset", {"repo_path": r}),
        ("git_status", {"repo_path": str(work / "not-a-repo")}),
        ("git_add", {"repo_path": r, "files": []}),
    ]),
    "mcp_server_time": (time_server.create_server("UTC"), [
        ("convert_time", {"source_timezone": "UTC", "time": "12:00",
                          "target_timezone": "Asia/Tokyo"}),
        ("convert_time", {"source_timezone": "UTC", "time": "25:99",
                          "target_timezone": "Asia/Tokyo"}),
        ("get_current_time", {"timezone": "Not/AZone"}),
    ]),
    "mcp_server_fetch": (
        fetch_server.create_server(ignore_robots_txt=True, allow_private_ips=True), [
        ("fetch", {"url": f"{url}/page.html"}),
        ("fetch", {"url": f"{url}/page.html", "max_length": 40}),
        ("fetch", {"url": f"{url}/page.html", "raw": True, "max_length": 60}),
        ("fetch", {"url": f"{url}/missing.html"}),
        ("fetch", {"url": "not a url"}),
    ]),
}


async def run(server, calls):
    async with Client(server, mode="legacy") as client:
        listed = await client.list_tools()
        tools = [t.model_dump(mode="json", exclude_none=True,
                              include={"name", "description", "input_schema",
                                       "output_schema", "annotations"})
                 for t in listed.tools]
        out = []
        for name, args in calls:
            result = await client.call_tool(name, args)
            out.append({
                "tool": name, "args": args,
                "content": [b.model_dump(mode="json", exclude_none=True)
                            for b in result.content],
                "is_error": bool(result.is_error),
                "structured": result.structured_content,
            })
        return {"tools": sorted(tools, key=lambda t: t["name"]), "calls": out}


found = {name: asyncio.run(run(server, calls)) for name, (server, calls) in SERVERS.items()}
for module in (git_server, time_server, fetch_server):
    found[module.__name__.partition(".")[0]]["file"] = module.__file__
print(json.dumps(found))
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _sources(bin_dir: Path, cache: Path, tree: Path) -> None:
    """Each server's package directory, from its wheel, into `tree`."""
    for package, requirement in SERVERS.items():
        name = requirement.split("==")[0].replace("-", "_")
        wheels = sorted(cache.glob(f"{name}-*.whl"))
        if not wheels:
            pip = [str(bin_dir / "python"), "-m", "pip", "download", "-q", "--no-deps"]
            subprocess.run([*pip, "-d", str(cache), requirement], check=True)
            wheels = sorted(cache.glob(f"{name}-*.whl"))
        with zipfile.ZipFile(wheels[-1]) as archive:
            members = [m for m in archive.namelist() if m.startswith(f"{package}/")]
            archive.extractall(tree, members)


def _drive(bin_dir: Path, tree: Path, work: Path, port: int) -> dict[str, Any]:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    done = subprocess.run(
        [str(bin_dir / "python"), "-c", DRIVER, str(tree), str(work), str(port)],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-4000:])
    data: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return data


def run(bin_dir: Path, scratch: Path) -> dict[str, Any]:
    cache = scratch / "wheels"
    cache.mkdir(parents=True, exist_ok=True)
    before, after = scratch / "before", scratch / "after"
    for tree in (before, after):
        tree.mkdir()
        _sources(bin_dir, cache, tree)
        (tree / "pyproject.toml").write_text('[tool.toolwire]\npresets = ["mcp"]\n', "utf-8")
    migrated = subprocess.run(
        [TOOLWIRE, "migrate", "--format", "json", "."], cwd=after, capture_output=True, text=True
    )
    if migrated.returncode:
        raise RuntimeError(migrated.stdout + migrated.stderr)
    summary = json.loads(migrated.stdout)
    again = subprocess.run(
        [TOOLWIRE, "migrate", "--check", "."], cwd=after, capture_output=True, text=True
    )
    compiled = subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(after)], capture_output=True
    )
    port = _free_port()  # the same URL before and after: it is part of the text
    seen_before = _drive(bin_dir, before, scratch / "work", port)
    seen_after = _drive(bin_dir, after, scratch / "work", port)
    per_server = []
    for package in SERVERS:
        one, two = seen_before[package], seen_after[package]
        # The servers were built from the copies, not from the venv's installed packages.
        assert one["file"] == str(before / package / "server.py"), one["file"]
        assert two["file"] == str(after / package / "server.py"), two["file"]
        pairs = list(zip(one["calls"], two["calls"], strict=True))
        mismatches = [
            {"tool": a["tool"], "args": a["args"], "before": a, "after": b}
            for a, b in pairs
            if (a["content"], a["is_error"], a["structured"])
            != (b["content"], b["is_error"], b["structured"])
        ]
        path = f"{package}/server.py"
        per_server.append(
            {
                "package": SERVERS[package],
                "tools": len(one["tools"]),
                "migrated": sorted(e["method"] for e in summary["migrated"] if e["path"] == path),
                "skipped": {
                    e["method"]: e["reason"] for e in summary["skipped"] if e["path"] == path
                },
                "listing_identical": one["tools"] == two["tools"],
                "calls": len(pairs),
                "same_text": sum(1 for a, b in pairs if a["content"] == b["content"]),
                "errors_before": sum(1 for a, _ in pairs if a["is_error"]),
                "errors_after": sum(1 for _, b in pairs if b["is_error"]),
                "mismatches": mismatches,
            }
        )
    return {
        "files_changed": summary["files_changed"],
        "methods_migrated": summary["methods_migrated"],
        "returns_error_by_marker": summary["returns_error_by_marker"],
        "all_compile": compiled.returncode == 0,
        "second_run_exit": again.returncode,
        "servers": per_server,
    }


def main() -> int:
    bin_dir = venv("mcp-servers", [*SERVERS.values(), "-e", str(ROOT)])
    if isinstance(bin_dir, str):
        print(f"cannot set up the servers' venv: {bin_dir}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        result = run(bin_dir, Path(tmp))
    if "--json" in sys.argv:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{result['files_changed']} files changed, {result['methods_migrated']} tools migrated "
        f"({result['returns_error_by_marker']} returns made errors by marker); "
        f"compiles: {result['all_compile']}; second run exit {result['second_run_exit']}"
    )
    for s in result["servers"]:
        print(
            f"{s['package']}: {s['tools']} tools, {len(s['migrated'])} migrated, "
            f"{len(s['skipped'])} skipped; listing identical: {s['listing_identical']}; "
            f"{s['calls']} calls, {s['same_text']} with identical content, errors "
            f"{s['errors_before']} before -> {s['errors_after']} after; "
            f"mismatches: {len(s['mismatches'])}"
        )
        for name, reason in s["skipped"].items():
            print(f"    skipped {name}: {reason}")
        for m in s["mismatches"]:
            print(f"    MISMATCH {m['tool']} {m['args']}: {m['before']} -> {m['after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
