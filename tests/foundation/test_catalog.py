from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire.lint.catalog import FAMILIES, LAYERS, CatalogError, catalog, nearest, parse_rule

RULES = Path(__file__).resolve().parents[2] / "rules"
# The rule files of the checkout, so that a new rule is a new file and nothing else here.
DESIGN_CODES = sorted(path.stem for path in RULES.glob("TW*.md"))


def toolwire(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolwire", path=str(Path(sys.executable).parent))
    assert exe, "the toolwire console script is installed beside the interpreter"
    return subprocess.run([exe, *args], capture_output=True, text=True)


def test_catalog_has_every_code_of_the_design() -> None:
    assert "TW000" in DESIGN_CODES and all(re.fullmatch(r"TW\d{3}", c) for c in DESIGN_CODES)
    assert list(catalog()) == DESIGN_CODES


def test_every_check_has_its_rule_and_every_syntax_rule_its_check() -> None:
    from toolwire.lint.checks import all_checks

    checks = {check.code for check in all_checks()}
    syntax = {code for code, rule in catalog().items() if "syntax" in rule.layers}
    assert checks == syntax - {"TW000"}  # TW000 is the engine's own: input it cannot read


@pytest.mark.parametrize("code", DESIGN_CODES)
def test_rule_files_are_complete(code: str) -> None:
    rule = catalog()[code]
    assert rule.family in (*FAMILIES, "input", "suppression")
    assert set(rule.layers) <= set(LAYERS)
    assert rule.section("What it does") and rule.section("Why is this bad?")
    if code == "TW000":
        return
    kinds = {e.kind for e in rule.examples}
    assert {"flagged", "clean"} <= kinds
    for example in rule.examples_of("flagged", "syntax") + rule.examples_of("flagged", "mypy"):
        assert example.expected(), f"{code} flagged example at line {example.line} expects nothing"
        assert all(c == code or re.fullmatch(r"TW\d{3}", c) for _, c in example.expected())
    for example in rule.examples:
        if example.kind == "clean":
            assert not example.expected()
        compile(example.code, f"{code}.md:{example.line}", "exec")
    if rule.fix:
        assert {"before", "after"} <= kinds


def test_parse_rule_rejects_missing_front_matter() -> None:
    with pytest.raises(CatalogError):
        parse_rule("# no front matter\n", "X.md")
    with pytest.raises(CatalogError, match="lacks"):
        parse_rule('+++\ncode = "TW999"\n+++\n', "TW999.md")


def test_nearest_suggests_close_codes() -> None:
    assert "TW301" in nearest("TW310")
    assert "TW301" in nearest("tw301x")


def test_rules_command_lists_the_catalog() -> None:
    done = toolwire("rules")
    assert done.returncode == 0
    listed = re.findall(r"^(TW\d{3})\s", done.stdout, re.M)
    assert listed == DESIGN_CODES


def test_explain_shows_statement_why_and_examples() -> None:
    done = toolwire("explain", "tw301")
    assert done.returncode == 0
    assert done.stdout.startswith("TW301 wire-payload-not-content (wire)")
    assert "## Why is this bad?" in done.stdout and "```python flagged" in done.stdout


def test_explain_unknown_code_exits_2_with_suggestions() -> None:
    done = toolwire("explain", "TW310")
    assert done.returncode == 2
    assert "unknown rule code" in done.stderr and "TW301" in done.stderr
    assert "Traceback" not in done.stderr


def test_version() -> None:
    import toolwire as package

    done = toolwire("--version")
    assert done.returncode == 0 and package.__version__ in done.stdout


def test_rules_off_by_default_are_read_alike_by_the_config_and_the_catalog() -> None:
    from toolwire.lint.config import code_enabled, off_by_default

    assert off_by_default() == {code for code, rule in catalog().items() if not rule.default}
    assert off_by_default() == {"TW001"}
    assert not code_enabled("TW001", (), ())
    assert not code_enabled("TW001", (), ("TW2",))
    assert code_enabled("TW001", ("TW",), ())
    assert not code_enabled("TW001", ("TW",), ("TW001",))
    assert code_enabled("TW204", (), ())


def test_messages_read_from_one_rule_file_are_the_catalogs() -> None:
    # `check` reads a finding's text from its rule's front matter alone, not the catalog
    from toolwire.lint.messages import _template

    pairs = [(r.code, key, text) for r in catalog().values() for key, text in r.messages.items()]
    assert len(pairs) > 20
    for code, key, text in pairs:
        assert _template(code, key) == text, (code, key)
