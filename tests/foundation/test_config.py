from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire.lint.config import (
    CallSink,
    ConfigError,
    MessageSink,
    code_enabled,
    config_from_table,
    find_config,
    load_config,
)

FIXTURES = Path(__file__).parents[1] / "fixtures"


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_defaults_without_a_file() -> None:
    config = load_config(None)
    assert config.result_classes == ("toolwire.ToolResult",)
    assert config.tool_methods == ("execute",)
    assert config.artifact_classes == ("toolwire.ToolArtifact", "toolwire.result.ToolArtifact")
    assert not config.has_wire_sinks
    assert {s.target for s in config.html_sinks} == {
        "markupsafe.Markup",
        "django.utils.safestring.mark_safe",
        "django.utils.html.format_html",
    }


def test_sink_parameter_name_is_resolved_to_its_position_from_source() -> None:
    config = load_config(FIXTURES / "pyproject.toml")
    sink = next(s for s in config.wire_sinks if s.target.endswith("tool_result"))
    assert (sink.index, sink.name) == (1, "content")
    user = next(s for s in config.wire_sinks if s.target.endswith(".user"))
    assert (user.index, user.name) == (0, "content")


def test_presets_add_message_sinks() -> None:
    config = load_config(FIXTURES / "pyproject.toml")
    assert MessageSink("role", "tool", "content", "role=tool:content") in config.message_sinks
    assert any(s.key == "type" and s.value == "tool_result" for s in config.message_sinks)
    assert any(s.payload == "output" for s in config.message_sinks)


def test_positional_sink_needs_no_source(tmp_path: Path) -> None:
    path = write(tmp_path, '[tool.toolwire]\nwire-sinks = ["nowhere.Chat.send:2"]\n')
    assert load_config(path).wire_sinks == (
        CallSink("nowhere.Chat.send", 2, None, "nowhere.Chat.send:2"),
    )


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ('tool-method = ["run"]', "tool-method"),
        ('tool-methods = "run, go"', "tool-methods"),
        ("tool-methods = [1]", "tool-methods"),
        ('result-class = "ToolResult"', "result-class"),
        ('wire-sinks = ["nowhere.Chat.send:content"]', "wire-sinks"),
        ('wire-sinks = ["role=tool"]', "wire-sinks"),
        ('presets = ["nosuch"]', "presets"),
        ('select = ["E501"]', "select"),
        ("seam = 3", "seam"),
        ('state-sinks = ["role=tool:content"]', "state-sinks"),
    ],
)
def test_bad_tables_name_the_key_and_the_file(tmp_path: Path, body: str, key: str) -> None:
    path = write(tmp_path, f"[tool.toolwire]\n{body}\n")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    message = str(raised.value)
    assert str(path) in message
    assert key in message
    assert "\n" not in message


def test_invalid_toml_is_a_config_error(tmp_path: Path) -> None:
    path = write(tmp_path, "[tool.toolwire\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_find_config_walks_up_to_the_nearest_table(tmp_path: Path) -> None:
    write(tmp_path, '[tool.toolwire]\ntool-methods = ["run"]\n')
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    found = find_config(tmp_path / "pkg" / "sub")
    assert found == tmp_path / "pyproject.toml"
    assert load_config(found).tool_methods == ("run",)


def test_select_and_ignore_follow_flake8_prefix_rules() -> None:
    assert code_enabled("TW301", (), ())
    assert not code_enabled("TW301", (), ("TW3",))
    assert code_enabled("TW301", ("TW301",), ("TW3",))
    assert not code_enabled("TW204", ("TW2",), ("TW204",))
    assert not code_enabled("TW101", ("TW2",), ())


def test_config_pickles_for_worker_processes() -> None:
    config = load_config(FIXTURES / "pyproject.toml")
    assert pickle.loads(pickle.dumps(config)) == config


def test_config_from_table_rejects_unknown_keys() -> None:
    with pytest.raises(ConfigError, match="unknown key"):
        config_from_table({"sinks": []})


def test_import_toolwire_loads_only_the_standard_library() -> None:
    code = (
        "import sys, toolwire; "
        "bad = [m for m in ('libcst', 'mypy', 'flake8', 'click', 'pathspec') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
