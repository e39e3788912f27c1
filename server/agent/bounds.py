"""What a model's answer may make the agent loop do. The model is untrusted input — a
prompt-injected message, a compromised provider or a tenant's broken model server can make it
say anything — so its answer is bounded and validated like a request body from the internet:

* a turn's rounds are bounded (``max_rounds``), and tool calls in an answer that was offered no
  tools are dropped, never run;
* at most ``max_tool_calls`` calls run per round and ``max_turn_tool_calls`` per turn; the excess
  fails to the model with ``too_many_tool_calls``, and an answer's calls past ``MAX_REPLY_CALLS``
  are dropped outright, so what one answer can write is bounded too;
* a call's id and name are the model's words: an id that is missing, repeated or too long is
  replaced by one of ours, a name that cannot be a tool's fails without running;
* what a turn stores is held to the node's byte caps (one message, the whole turn);
* a turn has a deadline for its model calls (``turn_timeout_s``).

Each refusal is counted by reason (``quiver_agent_refusals_total``).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from server import metrics
from server.agent.providers import Reply, ToolCall, clip, valid_reply
from server.calls import envelope as envelopes

DEFAULT_TOOL_CALLS = 16  # per round
MAX_TOOL_CALLS = 64  # the most a bot may allow per round
DEFAULT_TURN_TOOL_CALLS = 64
MAX_TURN_TOOL_CALLS = 256
DEFAULT_TURN_TIMEOUT_S = 120
MAX_TURN_TIMEOUT_S = 900
MAX_REPLY_CALLS = 2 * MAX_TOOL_CALLS  # an answer's calls past this are not even answered
MAX_CALL_ID = 256  # the messages table's tool_call_id
TOOL_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
CUT = " …[cut: over the size limit]"


@dataclass(frozen=True, slots=True)
class Bounds:
    """A turn's limits: the bot's settings within the node's."""

    round_calls: int = DEFAULT_TOOL_CALLS
    turn_calls: int = DEFAULT_TURN_TOOL_CALLS
    timeout_s: float = DEFAULT_TURN_TIMEOUT_S
    message_bytes: int = 65_536
    turn_bytes: int = 524_288

    @classmethod
    def of(cls, agent: dict[str, Any], message_bytes: int, turn_bytes: int) -> Bounds:
        return cls(
            min(agent.get("max_tool_calls") or DEFAULT_TOOL_CALLS, MAX_TOOL_CALLS),
            min(agent.get("max_turn_tool_calls") or DEFAULT_TURN_TOOL_CALLS, MAX_TURN_TOOL_CALLS),
            min(agent.get("turn_timeout_s") or DEFAULT_TURN_TIMEOUT_S, MAX_TURN_TIMEOUT_S),
            message_bytes,
            turn_bytes,
        )


def refused(reason: str, n: int = 1) -> None:
    if n:
        metrics.AGENT_REFUSALS.labels(reason=reason).inc(n)


def call_bytes(call: ToolCall | dict[str, Any]) -> int:
    """What a tool call takes in the transcript: its id, name and arguments' JSON."""
    if isinstance(call, ToolCall):
        call_id, name, arguments = call.id, call.name, call.arguments
    else:
        call_id, name, arguments = call["id"], call["name"], call["arguments"]
    return len(call_id.encode()) + len(name.encode()) + len(orjson.dumps(arguments))


def reply_bytes(reply: Reply) -> int:
    return len(reply.text.encode()) + sum(map(call_bytes, reply.tool_calls))


def held(reply: Reply, max_bytes: int) -> Reply:
    """The reply within ``max_bytes``: as it came, or its text's start and no calls (``cut``);
    valid Unicode either way."""
    reply = valid_reply(reply)
    if not reply.cut and reply_bytes(reply) <= max_bytes:
        return reply
    return Reply(clip(reply.text, max_bytes), [], reply.usage, cut=True)


def clip_result(text: str, max_bytes: int) -> str:
    """A tool result for the transcript, within ``max_bytes`` (saying that it was cut)."""
    if len(text.encode()) <= max_bytes:
        return text
    if max_bytes <= len(CUT.encode()):
        return clip(text, max_bytes)
    return clip(text, max_bytes - len(CUT.encode())) + CUT


def checked_calls(calls: list[ToolCall]) -> tuple[list[ToolCall], list[ToolCall], int]:
    """An answer's calls as the loop may keep them: ids made sound; the calls whose name no
    tool can have (they fail without running); and how many past ``MAX_REPLY_CALLS`` were
    dropped."""
    dropped = max(len(calls) - MAX_REPLY_CALLS, 0)
    kept: list[ToolCall] = []
    invalid: list[ToolCall] = []
    seen: set[str] = set()
    for call in calls[:MAX_REPLY_CALLS]:
        call_id = call.id
        if not call_id or len(call_id) > MAX_CALL_ID or call_id in seen:
            call_id = f"call_{uuid.uuid4().hex[:24]}"
        seen.add(call_id)
        name = call.name if isinstance(call.name, str) else ""
        sound = ToolCall(call_id, name[:64], call.arguments)
        kept.append(sound)
        if not TOOL_NAME.match(name):
            invalid.append(sound)
    refused("reply_tool_calls", dropped)
    refused("invalid_tool_call", len(invalid))
    return kept, invalid, dropped


def too_many(call: ToolCall, allowed: int, asked: int, per: str) -> dict[str, Any]:
    """The failure a call past the round's or the turn's cap gets (it did not run)."""
    message = f"not run: at most {allowed} tool calls run per {per} and {asked} were asked for"
    model = (
        f"Tool '{call.name}' was not run: at most {allowed} tool calls may run per {per}. "
        "Call only the tools you need, fewer at a time."
    )
    return envelopes.failure(call.name, 0.0, "too_many_tool_calls", message, model)


def no_such_tool(call: ToolCall) -> dict[str, Any]:
    message = f"{call.name!r} is not a tool name"
    model = f"There is no tool named '{call.name}'. Call only the tools you were offered."
    return envelopes.failure(call.name, 0.0, "tool_not_available", message, model)
