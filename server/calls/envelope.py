"""The call envelope of DESIGN §6 and the message the model should read on failure."""

from __future__ import annotations

from typing import Any

MODEL_MESSAGES = {
    "invalid_arguments": "Tool '{tool}' was called with invalid arguments: {detail} Fix the arguments and call it again.",
    "tool_not_available": "Tool '{tool}' is not available in this conversation. Do not call it again; continue without it.",
    "timeout": "Tool '{tool}' failed: it timed out. Tell the user you cannot get this information right now.",
    "memory_limit": "Tool '{tool}' failed: it ran out of resources. Tell the user you cannot do this right now.",
    "worker_crashed": "Tool '{tool}' failed unexpectedly. Tell the user you cannot do this right now.",
    "busy": "Tool '{tool}' is busy. Try again in a moment, or tell the user you cannot do this right now.",
    "result_too_large": "Tool '{tool}' failed: its result was too large. Tell the user you cannot do this right now.",
    "engine_unavailable": "Tool '{tool}' cannot run on this server yet. Tell the user you cannot do this right now.",
    "tool_failed": "Tool '{tool}' reported a failure: {detail}",
    "circuit_open": "Tool '{tool}' has failed repeatedly and is switched off. Do not call it again; tell the user you cannot do this right now and continue without it.",
    "missing_secret": "Tool '{tool}' is not fully configured on this server yet. Tell the user you cannot do this right now.",
    "browser_action": "Tool '{tool}' runs in the user's browser, not on the server. Call it through the page's agent instead.",
}
DEFAULT_MESSAGE = "Tool '{tool}' failed: {detail} Tell the user you cannot do this right now."


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
