"""A call's answer as the message an agent appends to its model's conversation, in each
provider's shape (``POST /v1/sessions/{sid}/calls?format=...``): the model reads the result's
JSON when the call succeeded, and the envelope's ``modelMessage`` when it did not."""

from __future__ import annotations

from typing import Any, Literal

import orjson

MessageFormat = Literal["openai", "openai-responses", "anthropic", "gemini"]
MESSAGE_FORMATS: tuple[str, ...] = ("openai", "openai-responses", "anthropic", "gemini")


def _text(envelope: dict[str, Any]) -> str:
    if envelope["success"]:
        return orjson.dumps(envelope.get("result")).decode()
    return str(envelope.get("modelMessage") or envelope["error"]["message"])


def tool_result_message(
    fmt: MessageFormat, envelope: dict[str, Any], call_id: str | None
) -> dict[str, Any]:
    name = envelope["toolName"]
    if fmt == "openai":  # Chat Completions
        return {"role": "tool", "tool_call_id": call_id or "", "content": _text(envelope)}
    if fmt == "openai-responses":
        return {"type": "function_call_output", "call_id": call_id or "", "output": _text(envelope)}
    if fmt == "anthropic":
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": call_id or "",
            "content": _text(envelope),
        }
        if not envelope["success"]:
            block["is_error"] = True
        return {"role": "user", "content": [block]}
    # Gemini: a function response part; the response is an object
    if envelope["success"]:
        result = envelope.get("result")
        response = result if isinstance(result, dict) else {"result": result}
    else:
        response = {"error": _text(envelope)}
    part: dict[str, Any] = {"function_response": {"name": name, "response": response}}
    if call_id:
        part["function_response"]["id"] = call_id
    return {"role": "user", "parts": [part]}
