"""The stdlib's `return <expr>` statements, wrapped into tool methods and migrated.

    python bench/returns_sample.py [--limit N] [--jobs 2]

Every distinct `return <expr>` of the standard library becomes

    class T<i>:
        def execute(self) -> str:
            return <expr>

(the statement's own text, parentheses, comments and line breaks included), then
`toolwire migrate` runs over them, and each migrated return must be
`ToolResult.text(X)` with exactly one argument X that is AST-equal to the old
expression. Prints the counts; exits 1 on any mismatch or migrate error.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

PER_FILE = 400
TOOLWIRE = str(Path(sys.executable).with_name("toolwire"))


def returns(limit: int | None) -> list[str]:
    """Distinct `return <expr>` statement texts, in a stable order."""
    root = Path(sysconfig.get_paths()["stdlib"])
    seen: dict[str, None] = {}
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Return) and node.value is not None:
                segment = ast.get_source_segment(text, node)
                if segment and _parses(segment):
                    seen.setdefault(segment, None)
                    if limit is not None and len(seen) >= limit:
                        return list(seen)
    return list(seen)


def _method(index: int, statement: str) -> str:
    return f"class T{index}:\n    def execute(self) -> str:\n        {statement}\n"


def _parses(statement: str) -> bool:
    try:
        ast.parse(_method(0, statement))
    except (SyntaxError, ValueError, RecursionError):
        return False
    return True


def _value(tree: ast.Module, index: int) -> ast.expr | None:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == f"T{index}":
            method = node.body[0]
            assert isinstance(method, ast.FunctionDef)
            statement = method.body[0]
            return statement.value if isinstance(statement, ast.Return) else None
    return None


def run(statements: list[str], work: Path, jobs: int) -> dict[str, int]:
    chunks = [statements[i : i + PER_FILE] for i in range(0, len(statements), PER_FILE)]
    for n, chunk in enumerate(chunks):
        body = "".join(_method(i, s) for i, s in enumerate(chunk))
        (work / f"m{n}.py").write_text(body, encoding="utf-8")
    done = subprocess.run(
        [TOOLWIRE, "migrate", "--jobs", str(jobs), "--codemod", "tool-returns", "."],
        cwd=work,
        capture_output=True,
        text=True,
    )
    counts = {"returns": len(statements), "migrated": 0, "equal": 0, "not migrated": 0}
    counts["changed meaning"] = 0
    counts["migrate errors"] = done.stderr.count("TW000")
    for n, chunk in enumerate(chunks):
        after = ast.parse((work / f"m{n}.py").read_text(encoding="utf-8"))
        for i, statement in enumerate(chunk):
            old = _value(ast.parse(_method(i, statement)), i)
            new = _value(after, i)
            assert old is not None
            if new is None:
                counts["changed meaning"] += 1
                continue
            wrapped = (
                isinstance(new, ast.Call)
                and isinstance(new.func, ast.Attribute)
                and new.func.attr in ("text", "error")
                and ast.dump(new.func.value) == "Name(id='ToolResult', ctx=Load())"
            )
            if not wrapped or ast.dump(new) == ast.dump(old):
                counts["not migrated"] += 1  # e.g. a method the codemod skips
                if ast.dump(new) != ast.dump(old):
                    counts["changed meaning"] += 1
                continue
            assert isinstance(new, ast.Call)
            counts["migrated"] += 1
            if len(new.args) == 1 and not new.keywords and ast.dump(new.args[0]) == ast.dump(old):
                counts["equal"] += 1
            else:
                counts["changed meaning"] += 1
                if counts["changed meaning"] <= 5:
                    print(f"changed meaning: {statement!r} -> {ast.unparse(new)}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    statements = returns(args.limit)
    with tempfile.TemporaryDirectory() as work:
        counts = run(statements, Path(work), args.jobs)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()))
    bad = counts["changed meaning"] or counts["migrate errors"]
    return 1 if bad or counts["equal"] != counts["migrated"] else 0


if __name__ == "__main__":
    sys.exit(main())
