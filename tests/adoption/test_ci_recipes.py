"""The CI recipes in docs/recipes/, parsed and run step by step on a small leaky project.

Only `pip install toolwire` is left out (this environment has it); every other shell
step runs in bash with the toolwire under test first on PATH, as the CI runner would.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from adoption_helpers import BIN, REPO, run, write

RECIPES = REPO / "docs" / "recipes"
LEAK = """\
from toolwire import ToolResult


def message(call_id: str, result: ToolResult) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": call_id, "content": str(result)}
"""
PROJECT = {"pyproject.toml": '[tool.toolwire]\npresets = ["openai"]\n', "app/leak.py": LEAK}

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _load(name: str) -> dict[Any, Any]:
    data = yaml.safe_load((RECIPES / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _shell(command: str, cwd: Path) -> tuple[int, str]:
    env = {"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = run(["bash", "-eo", "pipefail", "-c", command], cwd, env=env)
    return done.returncode, done.stdout + done.stderr


def _valid_sarif(path: Path) -> dict[str, Any]:
    sarif = json.loads(path.read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    (only_run,) = sarif["runs"]
    assert only_run["tool"]["driver"]["name"] == "toolwire"
    codes = sorted(r["ruleId"] for r in only_run["results"])
    assert codes == ["TW201", "TW301"]
    return sarif


def test_github_workflow(tmp_path: Path) -> None:
    workflow = _load("github-workflow.yml")
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads `on` as true
    assert set(triggers) == {"push", "pull_request"}
    job = workflow["jobs"]["toolwire"]
    assert job["permissions"]["security-events"] == "write"
    steps = job["steps"]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "github/codeql-action/upload-sarif"]
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    runs = [s["run"] for s in steps if "run" in s]
    assert runs[0] == "python -m pip install toolwire"
    assert f"> {upload['with']['sarif_file']}" in runs[1]
    assert "--format sarif" in runs[1]

    project = write(tmp_path, PROJECT)
    status, output = _shell(runs[1], project)
    assert status == 0, output  # --exit-zero: the upload step still runs
    _valid_sarif(project / upload["with"]["sarif_file"])
    status, output = _shell(runs[2], project)
    assert status == 1, output  # the gate fails the job
    assert "::error file=app/leak.py,line=5" in output
    assert "title=TW301" in output


def test_gitlab_job(tmp_path: Path) -> None:
    job = _load("gitlab-ci.yml")["toolwire"]
    script = job["script"]
    assert script[0] == "python -m pip install toolwire"
    assert script[-1] == "toolwire check ."
    report = job["artifacts"]["reports"]["codequality"]
    assert job["artifacts"]["when"] == "always"

    project = write(tmp_path, PROJECT)
    for command in script[1:-1]:
        status, output = _shell(command, project)
        assert status == 0, f"{command}\n{output}"
    _valid_sarif(project / "toolwire.sarif")
    issues = json.loads((project / report).read_text(encoding="utf-8"))
    assert [(i["check_name"], i["location"]) for i in issues] == [
        ("TW201", {"path": "app/leak.py", "lines": {"begin": 5, "end": 5}}),
        ("TW301", {"path": "app/leak.py", "lines": {"begin": 5, "end": 5}}),
    ]
    assert len({i["fingerprint"] for i in issues}) == 2
    assert {i["severity"] for i in issues} == {"major", "critical"}
    status, output = _shell(script[-1], project)
    assert status == 1, output
    assert "app/leak.py:5:" in output


def test_a_config_error_fails_the_report_step(tmp_path: Path) -> None:
    # --exit-zero hides findings, never a broken config: the job cannot pass silently.
    project = write(tmp_path, {**PROJECT, "pyproject.toml": "[tool.toolwire]\nsinks = []\n"})
    runs = [
        s["run"] for s in _load("github-workflow.yml")["jobs"]["toolwire"]["steps"] if "run" in s
    ]
    status, output = _shell(runs[1], project)
    assert status == 2
    assert "sinks" in output
