"""Valid Python never crashes the codemods, and what they write parses and is stable."""

from __future__ import annotations

import ast

import hypothesmith
import libcst as cst
from hypothesis import HealthCheck, given, settings
from libcst.codemod import CodemodContext

from toolwire.lint.codemods.tool_returns import ToolReturnsCommand
from toolwire.lint.config import Config

CONFIG = Config(tool_methods=("execute", "f", "g"))
# A tool class in every sample, so that the migration paths run too.
TOOL = "class T:\n    def execute(self, a) -> str:\n        try:\n            return a\n"
TOOL += "        except E:\n            return 'e'\n"


def migrate(source: str) -> str:
    command = ToolReturnsCommand(CodemodContext(filename="f.py"), config=CONFIG)
    return command.transform_module(cst.parse_module(source)).code


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(hypothesmith.from_grammar())
def test_tool_returns_never_crashes_on_valid_python(source: str) -> None:
    try:
        cst.parse_module(source)
        ast.parse(source)
    except Exception:  # hypothesmith can emit code one parser or the other refuses
        return
    for text in (source, TOOL + source):
        out = migrate(text)
        ast.parse(out)
        assert migrate(out) == out
