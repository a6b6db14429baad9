"""The tool loop: runs the model's tool calls and turns their output into messages."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence

from toolwire import ToolResult

from agent.chat import ChatMessage, ToolCall
from agent.debug import attach_artifact_notes
from agent.state import SuspendedRunState
from agent.tools.base import Tool, UnknownTool

__all__ = ["ToolCall", "ToolLoop"]

logger = logging.getLogger(__name__)


def _plain_text(output: object) -> str:
    """The wire text of a tool still on the ``str | None`` contract (None: no output)."""
    return output if isinstance(output, str) else "(no output)"


class ToolLoop:
    """Holds the tool registry; ``invoke`` is the one seam every tool call passes through."""

    def __init__(
        self,
        tools: Iterable[Tool],
        *,
        plain_text_tools: Iterable[str] = (),
        verbose: bool = False,
        echo_results: bool = False,
    ) -> None:
        self.tools: dict[str, Tool] = {tool.name: tool for tool in tools}
        # Tools that may return None (the codemod skips those; see README). They keep
        # their own wire path until someone migrates them by hand.
        self.plain_text_tools = frozenset(plain_text_tools)
        self.verbose = verbose
        # Some providers follow tool output better when it is repeated as a user turn.
        self.echo_results = echo_results
        self.notes: list[ChatMessage] = []

    def invoke(self, call: ToolCall) -> ChatMessage:
        tool: Tool = self.tools.get(call.name) or UnknownTool(call.name)
        result = tool.execute(call.arguments)
        if asyncio.iscoroutine(result):  # async tools, e.g. GlossaryTool
            result = asyncio.run(result)
        if self.verbose:
            # leak: logs the whole result; str() of a ToolResult raises TypeError (TW204)
            logger.debug("tool %s returned %s", call.name, result)
        if self.echo_results:
            # leak: the whole result is formatted into a prompt sent to the model (TW202, TW301)
            self.notes.append(ChatMessage.user(f"Tool execution result: {result}"))
        if isinstance(result, ToolResult):
            # Tools already on the typed contract (today only FileListTool; after
            # `toolwire migrate`, every migrated tool): only .content reaches the wire.
            # The isinstance is what lets one loop serve both contracts mid-migration.
            if self.verbose:
                attach_artifact_notes(result, self.notes)
            return ChatMessage.tool_result(call.id, result.content)
        if call.name in self.plain_text_tools:
            return ChatMessage.tool_result(call.id, _plain_text(result))
        # The old contract: the return value IS the wire text. `toolwire migrate`
        # lists it while `Tool.execute` stays `-> str`, then rewrites it to `.content`.
        return ChatMessage.tool_result(call.id, result)

    def run(self, calls: Sequence[ToolCall]) -> list[ChatMessage]:
        """One assistant turn requesting ``calls``, followed by one tool message per call."""
        transcript = [ChatMessage.assistant(tool_calls=tuple(calls))]
        for call in calls:
            transcript.append(self.invoke(call))
            transcript.extend(self.notes)
            self.notes.clear()
        return transcript

    def suspend(
        self, run_id: str, calls: Sequence[ToolCall], completed: int
    ) -> SuspendedRunState:
        """Runs the first ``completed`` calls and pauses before the rest."""
        transcript = self.run(calls[:completed])
        transcript[0] = ChatMessage.assistant(tool_calls=tuple(calls))
        return SuspendedRunState(
            run_id=run_id, transcript=tuple(transcript), pending_calls=tuple(calls[completed:])
        )

    def resume(self, state: SuspendedRunState) -> list[ChatMessage]:
        """Runs the pending calls of ``state`` and returns the completed transcript."""
        transcript = list(state.transcript)
        for call in state.pending_calls:
            transcript.append(self.invoke(call))
            transcript.extend(self.notes)
            self.notes.clear()
        return transcript
