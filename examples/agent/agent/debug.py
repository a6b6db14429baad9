"""Developer aids for inspecting tool output while working on a prompt."""

from __future__ import annotations

from toolwire import ToolResult

from agent.chat import ChatMessage


def attach_artifact_notes(result: ToolResult, transcript: list[ChatMessage]) -> None:
    """Show the model what the inspector shows, so it can "see" the table too."""
    for artifact in result.artifacts:
        # leak: run-only artifact data goes into a prompt, i.e. to the provider (TW302)
        transcript.append(ChatMessage.user(f"[{artifact.label}] {artifact.data}"))
