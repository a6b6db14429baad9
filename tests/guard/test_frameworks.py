"""Each framework's real path with its own test model, run by `pytest --toolwire-guard`.

The cases are in `cases/guarded_frameworks.py`: a clean adapter path must pass and a
deliberate leak must fail with a message naming the artifact, its type, where it was
made and where it was sent. One pytest process runs them all, to keep CI time small.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

CASES = Path(__file__).parent / "cases" / "guarded_frameworks.py"
WHERE = {
    "langchain": "langchain BaseChatModel._generate_with_cache (FakeMessagesListChatModel)",
    "pydantic_ai": "pydantic-ai TestModel.request (TestModel)",
    "openai_agents": "openai-agents ScriptedModel.get_response (ScriptedModel)",
    "smolagents": "smolagents ScriptedModel.generate (ScriptedModel)",
    "crewai": "crewai ScriptedLLM.call (ScriptedLLM)",
    "llamaindex": "llamaindex chat (MockFunctionCallingLLM)",
}


def run_cases(tmp_path: Path, *options: str) -> dict[str, str]:
    report = tmp_path / "report.xml"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            *options,
            f"--junitxml={report}",
            str(CASES),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert report.exists(), run.stdout + run.stderr
    outcomes: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failure = case.find("failure")
        outcomes[case.attrib["name"]] = "" if failure is None else failure.attrib["message"]
    return outcomes


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return run_cases(tmp_path_factory.mktemp("guarded"), "--toolwire-guard")


@pytest.mark.parametrize("framework", sorted(WHERE))
def test_clean_adapter_path_passes(guarded: dict[str, str], framework: str) -> None:
    assert guarded[f"test_clean_{framework}"] == ""


@pytest.mark.parametrize("framework", sorted(WHERE))
def test_leak_fails_with_a_useful_message(guarded: dict[str, str], framework: str) -> None:
    [message] = [m for name, m in guarded.items() if name.startswith(f"test_leak_{framework}_")]
    assert "toolwire guard: artifact data reached a model\n  - " in message, message
    origin = f"{CASES}:{CASES.read_text().splitlines().index('def hotels() -> ToolResult:') + 2}"
    assert f"artifact 'hotels' (type 'table') created at {origin}" in message
    assert f"reached the model in {WHERE[framework]}" in message
    assert "ARTIFACT-ONLY-guard-5e1f" in message
