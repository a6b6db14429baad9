"""A `ToolOutput`'s `str()` and `format()` are its `.content` (`safe-strings`), also
through a list of them, `print` and a literal `str.format` template."""

from llama_index.core.tools import ToolOutput


def report(outputs: list[ToolOutput], last: ToolOutput) -> str:
    lines = [f"Response: {output!s}" for output in outputs]
    for output in outputs:
        print(output)
        lines.append("Response: {}".format(output))
    lines.append(str(last))
    return "\n".join(lines)
