"""The pages of the check-only framework presets (no adapter: google-genai, litellm) run as
written on the installed framework, and install what their extra pins.

The blocks of "What `toolwire check` knows" are the preset's cases (test_presets.py); every
other ```python block runs here, top to bottom in one module, against the real SDK.
"""

from __future__ import annotations

import pytest
from framework_docs import assert_extra_installed, install_extras, page_text, run_blocks
from framework_docs import python_blocks as page_blocks

from toolwire.lint.model import Framework, frameworks

CHECK_ONLY = [f for f in frameworks() if not f.adapter]
IDS = [f.preset for f in CHECK_ONLY]


def test_the_check_only_presets_are_there() -> None:
    assert {"google-genai", "litellm"} <= set(IDS)


@pytest.mark.parametrize("framework", CHECK_ONLY, ids=IDS)
def test_the_page_installs_its_extra(framework: Framework) -> None:
    assert install_extras(f"{framework.preset}.md") == [framework.extra]
    assert_extra_installed(framework.extra)


@pytest.mark.parametrize("framework", CHECK_ONLY, ids=IDS)
def test_the_page_runs(framework: Framework, monkeypatch: pytest.MonkeyPatch) -> None:
    page = f"{framework.preset}.md"
    # litellm fetches its cost map at import unless told to use the bundled one.
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    text = page_text(page)
    section = text.index("## What `toolwire check` knows")
    before = text.count("\n", 0, section) + 1
    found = [block for block in page_blocks(page) if block.line < before]
    assert found, f"{page}: no python block before its check section"
    run_blocks(page, found)  # the blocks assert what the SDK builds
