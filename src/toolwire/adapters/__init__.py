"""Framework adapters: a `ToolResult` that works where Python tools live.

One module per framework (`toolwire.adapters.langchain`, `.mcp`, `.openai_agents`,
`.pydantic_ai`, `.crewai`, `.llamaindex`, `.smolagents`). Each maps a result onto its
framework's channels: `content` is exactly the text the model reads, an error result is
the framework's own error, and the artifacts go only to the framework's run-only
channel. A module imports its framework when it is imported itself, never before, and
each framework is an optional extra (`pip install 'toolwire[langchain]'`).

Every adapter bounds what leaves for the framework (ADR-108's seam): `bounds=` on each
entry point, else `default_bounds()`, which `set_default_bounds` changes for all of them.
See docs/frameworks/index.md.
"""

from toolwire.adapters._common import BoundsOption, default_bounds, set_default_bounds
from toolwire.bounds import Bounds

__all__ = ["Bounds", "BoundsOption", "default_bounds", "set_default_bounds"]
