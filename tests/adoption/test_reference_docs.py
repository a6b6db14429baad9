"""docs/rules.md is rendered from rules/: it fails here when someone forgets to re-render."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

from adoption_helpers import REPO, run

from toolwire.lint import config
from toolwire.lint.catalog import catalog
from toolwire.lint.docs import load_rules, render
from toolwire.lint.model import frameworks

RULES_MD = REPO / "docs" / "rules.md"


def check_page(page: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m toolwire.lint.docs --check` of `page` against the checkout's rules/."""
    command = [sys.executable, "-m", "toolwire.lint.docs", "--rules", str(REPO / "rules")]
    return run([*command, "--check", str(page)], cwd)


def test_rules_md_is_up_to_date() -> None:
    """A new or changed rule file is the only edit: the suite renders docs/rules.md from
    it on a contributor's machine (commit the result), and CI fails on a stale page."""
    # The checkout's rules/, not the installed copy: that is what a contributor edits.
    done = check_page(RULES_MD, REPO)
    if done.returncode != 0 and not os.environ.get("CI"):
        render_command = [
            sys.executable,
            "-m",
            "toolwire.lint.docs",
            "--rules",
            str(REPO / "rules"),
        ]
        assert run([*render_command, "-o", str(RULES_MD)], REPO).returncode == 0
        warnings.warn("docs/rules.md was stale and is rendered again: commit it", stacklevel=1)
        done = check_page(RULES_MD, REPO)
    assert done.returncode == 0, (
        "docs/rules.md is stale; run"
        " `python -m toolwire.lint.docs --rules rules -o docs/rules.md`\n" + done.stderr
    )


def test_check_exits_1_on_a_stale_page(tmp_path: Path) -> None:
    stale = tmp_path / "rules.md"
    stale.write_text(RULES_MD.read_text(encoding="utf-8").replace("TW301", "TW399", 1))
    done = check_page(stale, tmp_path)
    assert done.returncode == 1
    assert "is stale" in done.stderr
    assert "-| [TW399]" in done.stderr or "+| [TW301]" in done.stderr  # the diff is shown


def test_every_rule_and_every_example_is_on_the_page() -> None:
    rules = load_rules(REPO / "rules")
    page = render(rules)
    assert [r.code for r in rules] == list(catalog())  # installed catalog == checkout
    for rule in rules:
        assert f"## {rule.code}: {rule.name}" in page
        for example in rule.examples:
            assert example.code in page, f"{rule.code}: an example is missing"


def test_configuration_page_covers_every_key_and_preset() -> None:
    page = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    for key in sorted(config._KEYS):
        assert f"### `{key}`" in page or f"### `{key}` and" in page or f"and `{key}`" in page, key
        assert f"| `{key}` |" in page, f"{key} is missing from the key table"
    # A framework preset is documented in docs/frameworks (tests/presets/test_framework_list.py).
    framework_presets = {framework.preset for framework in frameworks()}
    for name, preset in config.presets().items():
        if name in framework_presets:
            continue
        row = next((line for line in page.splitlines() if line.startswith(f"| `{name}` |")), "")
        assert row, f"preset {name} is not documented"
        for spec in preset["wire-sinks"]:
            assert f"`{spec}`" in row, f"preset {name}: {spec} is not documented"
    for sink in config.DEFAULT_HTML_SINKS:
        assert f'"{sink}"' in page
