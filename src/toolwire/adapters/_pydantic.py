"""Run-only artifacts that pydantic serialises as their payload-free stub.

LangChain's `ToolMessage` and LlamaIndex's `ToolOutput` are pydantic models, and both hold
the run-only channel in an `Any` field. LangGraph checkpoints and LlamaIndex context
snapshots serialise those models with `model_dump()`, which pickling rules never see: a
plain tuple of dataclasses would be dumped field by field, payload and all.
"""

from __future__ import annotations

from pydantic_core import SchemaSerializer, core_schema

from toolwire.adapters._common import RunOnlyArtifacts


class PydanticRunOnlyArtifacts(RunOnlyArtifacts):
    """`RunOnlyArtifacts` whose pydantic dump (python and JSON) is `to_json()`'s stub.

    pydantic-core serialises any object that carries a `__pydantic_serializer__` through
    it, also inside an `Any` field, so a model holding this carrier dumps
    `{"toolwire_run_only_artifacts": <count>}`: plain data, no payload, nothing a
    deserialiser has to import.
    """

    __slots__ = ()

    __pydantic_serializer__ = SchemaSerializer(
        core_schema.any_schema(
            serialization=core_schema.plain_serializer_function_ser_schema(RunOnlyArtifacts.to_json)
        )
    )
