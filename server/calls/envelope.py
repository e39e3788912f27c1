"""The call envelope of DESIGN §6 and the message the model should read on failure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson


@dataclass(frozen=True)
class Code:
    """What an envelope's failure code means for the rest of the platform."""

    tools_fault: bool  # counts for the breakers (the session's and the tenant's rolling one)
    model_message: str | None = None  # what the model reads (None: ``DEFAULT_MESSAGE``)


# Every failure code an envelope carries, in one table: the engines' (``sandbox.engine.
# FailureCode``: each engine translates its native failures — a killed worker, a trap, a
# deadline — into one of them), the built-in skills', the pipeline's own and the webhooks'.
# A code that is not the tool's fault says nothing about its health: the model's arguments, the
# node's load, a worker killed from outside, an engine or a secret this node lacks, a breaker,
# a claim, a skill asked for what is not there. docs/errors.md names each (a test checks).
CODES: dict[str, Code] = {
    # the engines'
    "tool_error": Code(True),
    "timeout": Code(
        True,
        "Tool '{tool}' failed: it timed out. Tell the user you cannot get this information right "
        "now.",
    ),
    "memory_limit": Code(
        True,
        "Tool '{tool}' failed: it ran out of resources. Tell the user you cannot do this right "
        "now.",
    ),
    "out_of_fuel": Code(True),
    "worker_crashed": Code(
        False, "Tool '{tool}' failed unexpectedly. Tell the user you cannot do this right now."
    ),
    "trap": Code(True),
    "exit_code": Code(True),
    "malformed_output": Code(True),
    "result_too_large": Code(
        True,
        "Tool '{tool}' failed: its result was too large. Tell the user you cannot do this right "
        "now.",
    ),
    "nesting_too_deep": Code(True),
    "load_timeout": Code(True),
    "busy": Code(
        False,
        "Tool '{tool}' is busy. Try again in a moment, or tell the user you cannot do this right "
        "now.",
    ),
    "host_call_error": Code(True),
    # the built-in skills'
    "not_configured": Code(False),
    "not_found": Code(False),
    "invalid_input": Code(False),
    "slot_taken": Code(False),
    # the call pipeline's
    "invalid_arguments": Code(
        False,
        "Tool '{tool}' was called with invalid arguments: {detail} Fix the arguments and call it "
        "again.",
    ),
    "tool_not_available": Code(
        False,
        "Tool '{tool}' is not available in this conversation. Do not call it again; continue "
        "without it.",
    ),
    "already_done": Code(False),
    "circuit_open": Code(
        False,
        "Tool '{tool}' has failed repeatedly and is switched off. Do not call it again; tell the "
        "user you cannot do this right now and continue without it.",
    ),
    "browser_action": Code(
        False,
        "Tool '{tool}' runs in the user's browser, not on the server. Call it through the page's "
        "agent instead.",
    ),
    "tool_failed": Code(True, "Tool '{tool}' reported a failure: {detail}"),
    "engine_unavailable": Code(
        False,
        "Tool '{tool}' cannot run on this server yet. Tell the user you cannot do this right now.",
    ),
    "missing_secret": Code(
        False,
        "Tool '{tool}' is not fully configured on this server yet. Tell the user you cannot do "
        "this right now.",
    ),
    "not_approved": Code(True),
    "requires_connection": Code(
        False,
        "Tool '{tool}' acts as the user, who has not connected that account yet: {detail} Give "
        "the user the link to connect, and call the tool again once they have.",
    ),
    "too_many_tool_calls": Code(False),
    "guardrail_denied": Code(
        False,
        "The tenant's policy does not allow this call of tool '{tool}': {detail} Do not call it "
        "again with these arguments; tell the user you cannot do this.",
    ),
    # long-running jobs' (docs/jobs.md)
    "too_many_jobs": Code(
        False,
        "Tool '{tool}' cannot start now: too many of its kind of work are running. Tell the user "
        "to try again later.",
    ),
    "cancelled": Code(False, "Tool '{tool}' was cancelled before it finished."),
    "abandoned": Code(
        False,
        "Tool '{tool}' could not finish: the servers running it stopped. Tell the user you cannot "
        "do this right now.",
    ),
    # the webhooks' (docs/egress.md)
    "upstream_4xx": Code(True),
    "upstream_5xx": Code(True),
    "connect_error": Code(True),
    "egress_denied": Code(True),
    "dns_error": Code(True),
    "malformed_response": Code(True),
    "too_large": Code(True),
}
NOT_THE_TOOLS_FAULT = frozenset(name for name, code in CODES.items() if not code.tools_fault)
MODEL_MESSAGES = {name: code.model_message for name, code in CODES.items() if code.model_message}
DEFAULT_MESSAGE = "Tool '{tool}' failed: {detail} Tell the user you cannot do this right now."


def model_text(envelope: dict[str, Any]) -> str:
    """What a model reads of a call: the result's JSON, or the failure's ``modelMessage``."""
    if envelope.get("success"):
        return orjson.dumps(envelope.get("result")).decode()
    return str(
        envelope.get("modelMessage")
        or (envelope.get("error") or {}).get("message")
        or "the tool failed"
    )


def success(tool: str, took_ms: float, result: Any, **extra: Any) -> dict[str, Any]:
    return {
        "success": True,
        "toolName": tool,
        "executionTime": round(took_ms, 3),
        "result": result,
        **extra,
    }


def failure(
    tool: str,
    took_ms: float,
    code: str,
    message: str,
    model_message: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    if model_message is None:
        model_message = MODEL_MESSAGES.get(code, DEFAULT_MESSAGE).format(
            tool=tool, detail=message.rstrip(".") + "."
        )
    return {
        "success": False,
        "toolName": tool,
        "executionTime": round(took_ms, 3),
        "error": {"code": code, "message": message},
        "modelMessage": model_message,
        **extra,
    }
