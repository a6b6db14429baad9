"""`repr()` and `!r` of a `ToolOutput` hold `raw_output`, though its `str()` is safe."""
# xfail mypy: `{x!r}` is a `str.format` call to mypy, judged as the safe `format` form

from llama_index.core.tools import ToolOutput


def report(output: ToolOutput) -> str:
    first = f"Response: {output!s}"
    debug = repr(output)  # expect: TW201
    return first + debug + f"{output!r}"  # expect: TW202
