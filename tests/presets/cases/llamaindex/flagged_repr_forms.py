"""`repr()` and `!r` of a `ToolOutput` hold `raw_output`, though its `str()` is safe."""

from llama_index.core.tools import ToolOutput


def report(output: ToolOutput) -> str:
    first = f"Response: {output!s}"
    debug = repr(output)  # expect: TW201
    return first + debug + f"{output!r}"  # expect: TW202


def template(output: ToolOutput) -> str:
    return "{0!s} was {1!r}".format(output, output)  # expect: TW202
