"""toolwire: keep LLM tool artifacts off the provider wire.

Importing the package loads only the runtime (standard library only); the linter, the
codemods and the plugins live in their own modules.
"""

from toolwire import bounds
from toolwire.result import ArtifactType, ToolArtifact, ToolResult

__all__ = ["ArtifactType", "ToolArtifact", "ToolResult", "bounds"]
__version__ = "0.1.0"
