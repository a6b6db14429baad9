"""A ToolMessage copied into a chunk, as langchain-core's `_msg_to_chunk` does: the dump is
spread into the new message's fields (the artifact stays its artifact), not serialised.

mypy's method hooks do not see the `**` around the call, so the plugin reports this
`model_dump()` (a layer limit, docs/model.md).
"""
# layers: syntax

from langchain_core.messages import ToolMessage, ToolMessageChunk


def chunk(message: ToolMessage) -> ToolMessageChunk:
    return ToolMessageChunk(**message.model_dump(exclude={"type"}))
