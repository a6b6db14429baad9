"""`import toolwire` and `import toolwire.adapters` load no framework; an adapter loads its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from adk_env import run_python

from toolwire.lint.model import frameworks

# adapter module -> the framework's modules, from the presets; importing the adapter loads
# the first, and toolwire may load none of them on its own
ADAPTERS = {f.adapter.rpartition(".")[2]: f.modules for f in frameworks() if f.adapter}
NEVER_BY_TOOLWIRE = {m for modules in ADAPTERS.values() for m in modules} | {
    "pydantic",
    "pydantic_core",
}
# google-adk cannot live in this environment (pyproject.toml): its adapter is imported in
# the ADK venv (adk_env.py).
OWN_VENV = {"google_adk"}


def _loads(adapter: str, modules: tuple[str, ...]) -> str:
    return (
        "import sys, importlib\n"
        f"importlib.import_module('toolwire.adapters.{adapter}')\n"
        f"missing = [m for m in {modules[:1]!r} if m not in sys.modules]\n"
        "assert not missing, missing\n"
    )


def test_toolwire_and_the_adapters_package_load_no_framework() -> None:
    code = (
        "import sys, toolwire, toolwire.adapters\n"
        f"loaded = {sorted(NEVER_BY_TOOLWIRE)!r}\n"
        "loaded = [m for m in loaded if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.fixture(scope="module")
def imported() -> dict[str, subprocess.CompletedProcess[str]]:
    """adapter -> a fresh interpreter's import of it; all at once (each waits on imports)."""
    started = {}
    for adapter, modules in ADAPTERS.items():
        if adapter in OWN_VENV:
            continue
        started[adapter] = subprocess.Popen(
            [sys.executable, "-c", _loads(adapter, modules)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    done = {}
    for adapter, process in started.items():
        out, err = process.communicate(timeout=600)
        done[adapter] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


@pytest.mark.parametrize("adapter", sorted(set(ADAPTERS) - OWN_VENV))
def test_an_adapter_loads_its_framework(
    adapter: str, imported: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    run = imported[adapter]
    assert run.returncode == 0, run.stderr


def test_the_adk_adapter_loads_adk_in_its_own_venv(adk_python: Path) -> None:
    assert OWN_VENV <= set(ADAPTERS)
    run = run_python(adk_python, "-c", _loads("google_adk", ADAPTERS["google_adk"]))
    assert run.returncode == 0, run.stderr
    # and toolwire alone loads no part of it, where it is installed
    bare = "import sys, toolwire, toolwire.adapters\nassert 'google.adk' not in sys.modules\n"
    run = run_python(adk_python, "-c", bare)
    assert run.returncode == 0, run.stderr
