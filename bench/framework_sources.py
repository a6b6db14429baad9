"""False alarms of the framework presets: `toolwire check` with every preset on real code.

    python bench/framework_sources.py [--show] [--json] [--jobs N] [TARGET ...]

Targets: the installed sources of the frameworks the presets describe (langchain-core,
langgraph, mcp, fastmcp, openai-agents, pydantic-ai, crewai, llama-index-core, smolagents,
google-genai, litellm), the CPython stdlib, and the pinned django and langchain-community
wheels of bench/_common.py (fetched with `pip download --no-deps` on first use). Each is
checked by the real `toolwire check` with one config, `presets = [<every shipped preset>]`.
The table gives the files checked, the findings by code, and how many of them are not in
KEPT, the findings that are real (leaks, or a rule's true finding), each with the reason;
`--show` lists every finding. Anything else is a false alarm, to be fixed in the data or
the analysis. TW000 (a file that cannot be parsed: the stdlib's deliberately broken test
data) is counted apart.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PYTHON, corpus_dir, timed

from toolwire.lint.config import presets

FRAMEWORKS = {
    "langchain-core": "langchain_core",
    "langgraph": "langgraph",
    "mcp": "mcp",
    "fastmcp": "fastmcp",
    "openai-agents": "agents",
    "pydantic-ai": "pydantic_ai",
    "crewai": "crewai",
    "llama-index-core": "llama_index.core",
    "smolagents": "smolagents",
    "google-genai": "google.genai",
    "litellm": "litellm",
}
CORPORA = ("django", "langchain-community")

# (target, path suffix, code) -> why the finding is a real leak.
KEPT = {
    ("crewai", "crewai/tools/mcp_tool_wrapper.py", "TW201"): (
        "a CrewAI tool's text for the agent is `str(result)` of `session.call_tool(...)` when "
        "the result has no content blocks: the repr holds `structuredContent` and `_meta`"
    ),
    ("litellm", "litellm/responses/mcp/litellm_proxy_mcp_handler.py", "TW106"): (
        "`_parse_mcp_result(result: CallToolResult)` tests `not result`: a CallToolResult (a "
        "pydantic model, not Optional here) is always true, so that test never decides; the "
        "same condition goes on to test `.content`, as the rule advises"
    ),
    ("langchain-community", "langchain_community/tools/ddg_search/tool.py", "TW302"): (
        "DuckDuckGoSearchResults, the issue's own example: a content-and-artifact tool whose "
        "content is its artifact again (`json.dumps(results)`, a join of them), projected "
        "from `raw_results`, the artifact returned beside it"
    ),
    ("langchain-community", "langchain_community/tools/tavily_search/tool.py", "TW302"): (
        "TavilySearchResults: content `clean_results(raw_results['results'])` beside the "
        "artifact `raw_results`: the model reads the same records the artifact keeps"
    ),
    ("langchain-community", "langchain_community/tools/bing_search/tool.py", "TW302"): (
        "BingSearchResults: `return str(results), results`, the artifact's repr as content"
    ),
    # Checked from an unpacked wheel, not an installed package (where TW101 is quiet): its
    # BaseTool subclasses are tools of the langchain preset's shape that return str.
    ("langchain-community", "", "TW101"): (
        "a tool package's `_run`/`_arun` annotated `-> str`: not migrated yet, which is what "
        "TW101 says (bench/migrate_frameworks.py migrates 171 of these methods)"
    ),
}


def kept(target: str, finding: dict[str, object]) -> str | None:
    path = str(finding["path"])
    return next(
        (
            why
            for (t, suffix, code), why in KEPT.items()
            if t == target and path.endswith(suffix) and finding["code"] == code
        ),
        None,
    )


TOOLWIRE = shutil.which("toolwire") or str(Path(PYTHON).with_name("toolwire"))


def targets() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for name, package in FRAMEWORKS.items():
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(f"bench: {package} is not installed (pip install -e '.[test]')")
        found[name] = [Path(next(iter(spec.submodule_search_locations)))]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found["stdlib"] = sorted(
        p
        for p in stdlib.iterdir()
        if p.name != "site-packages" and (p.is_dir() or p.suffix == ".py")
    )
    for name in CORPORA:
        found[name] = [corpus_dir(name)]
    return found


def check(paths: list[Path], config: Path, jobs: int) -> dict[str, object]:
    options = ["--format", "json", "--exit-zero", "--jobs", str(jobs), "--config", str(config)]
    run = timed([TOOLWIRE, "check", *options, *map(str, paths)])
    try:  # exit 2 with a report: files that are not Python (the stdlib's test data)
        data = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise SystemExit(
            f"bench: toolwire check {paths[0]}... exited {run.returncode}:\n{run.stderr}"
        ) from None
    data["wall"] = run.wall
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="list every finding")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("only", nargs="*", metavar="TARGET", help="some of the targets")
    args = parser.parse_args()
    every = targets()
    unknown = set(args.only) - set(every)
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)} (known: {', '.join(every)})")
    chosen = {name: paths for name, paths in every.items() if not args.only or name in args.only}
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "toolwire.toml"
        names = ", ".join(json.dumps(name) for name in sorted(presets()))
        config.write_text(f"[tool.toolwire]\npresets = [{names}]\n", encoding="utf-8")
        results = {name: check(paths, config, args.jobs) for name, paths in chosen.items()}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"presets: {', '.join(sorted(presets()))}")
    print(f"{'target':<20} {'files':>6} {'TW000':>6} {'findings':>8} {'unkept':>6}  by code")
    for name, data in results.items():
        findings = data["findings"]
        assert isinstance(findings, list)
        unreadable = [f for f in findings if f["code"] == "TW000"]
        rules = [f for f in findings if f["code"] != "TW000"]
        codes = collections.Counter(f["code"] for f in rules)
        unkept = sum(kept(name, f) is None for f in rules)
        summary = data["summary"]
        assert isinstance(summary, dict)
        shown = ", ".join(f"{c} {n}" for c, n in sorted(codes.items())) or "-"
        files = summary["files_checked"]
        print(f"{name:<20} {files:>6} {len(unreadable):>6} {len(rules):>8} {unkept:>6}  {shown}")
    if args.show:
        for name, data in results.items():
            findings = data["findings"]
            assert isinstance(findings, list)
            for f in findings:
                where = f"{name}: {f['path']}:{f['line']}:{f['column']}: {f['code']}"
                why = kept(name, f) if f["code"] != "TW000" else "cannot be parsed"
                print(f"{where} {f['message']}\n    {'kept: ' + why if why else 'FALSE ALARM'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
