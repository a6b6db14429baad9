"""The pytest plugin: a test fails when artifact data reaches a model while it runs.

Off unless enabled with ``--toolwire-guard`` or the ini option ``toolwire_guard = true``.
Enabled, it installs ``toolwire.guard`` in record mode: nothing raises inside the code
under test (a framework could swallow it), and each test whose run sent a fingerprint of
an artifact to a model fails after its call, with one line per leak. Loading the plugin
costs nothing more than this module: the guard is imported only when enabled.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from toolwire.guard import Guard

_GUARD = pytest.StashKey["Guard"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolwire", "toolwire guard")
    group.addoption(
        "--toolwire-guard",
        action="store_true",
        default=None,
        help="fail a test when a tool artifact's data reaches a model (toolwire.guard)",
    )
    group.addoption(
        "--no-toolwire-guard",
        action="store_false",
        dest="toolwire_guard",
        help="turn the toolwire guard off even if the ini option enables it",
    )
    parser.addini(
        "toolwire_guard",
        type="bool",
        default=False,
        help="run every test under toolwire.guard (as --toolwire-guard)",
    )


def _enabled(config: pytest.Config) -> bool:
    option = config.getoption("toolwire_guard")
    if option is not None:
        return bool(option)
    return bool(config.getini("toolwire_guard"))


def pytest_configure(config: pytest.Config) -> None:
    if not _enabled(config):
        return
    from toolwire import guard

    config.stash[_GUARD] = guard.install("record")


def pytest_unconfigure(config: pytest.Config) -> None:
    installed = config.stash.get(_GUARD, None)
    if installed is not None:
        installed.uninstall()
        del config.stash[_GUARD]


def pytest_report_header(config: pytest.Config) -> str | None:
    if config.stash.get(_GUARD, None) is None:
        return None
    return "toolwire guard: on (a test fails when artifact data reaches a model)"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    installed = item.config.stash.get(_GUARD, None)
    if installed is None:
        return
    from toolwire import guard

    if guard.active() is not installed:  # a test installed a guard of its own
        installed = item.config.stash[_GUARD] = guard.install("record")
    installed.reset()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    outcome = yield
    installed = item.config.stash.get(_GUARD, None)
    if installed is not None and installed.leaks:
        messages = dict.fromkeys(leak.message() for leak in installed.leaks)
        lines = "\n".join(f"  - {message}" for message in messages)
        installed.leaks.clear()
        pytest.fail(f"toolwire guard: artifact data reached a model\n{lines}", pytrace=False)
    return outcome


@pytest.fixture
def toolwire_guard(request: pytest.FixtureRequest) -> Guard:
    """The installed guard (``--toolwire-guard``): ``.inspect()`` for a wire sink of your own."""
    installed = request.config.stash.get(_GUARD, None)
    if installed is None:
        pytest.skip("the toolwire guard is off (run with --toolwire-guard)")
    return installed
