"""Tool bodies for tests."""

from __future__ import annotations

import base64
from typing import Any

WASM_MODULE = b"\x00asm\x01\x00\x00\x00"


def python_source(
    name: str = "check_order",
    description: str = "Check an order",
    extra: str = "",
    parameters: str | None = None,
) -> str:
    params = parameters or '{"order_id": {"type": "string", "required": True}}'
    return f'''LIMIT = 3


def execute(params, context):
    return {{"success": True, "message": "ok"}}


tool = {{
    "name": "{name}",
    "description": "{description}",
    "parameters": {params},
    "execute": execute,
    "metadata": {{"timeout": 2000}},{extra}
}}
'''


def python_tool(name: str = "check_order", **kw: Any) -> dict[str, Any]:
    return {"kind": "python", "sandbox": "restricted", "source": python_source(name, **kw)}


def webhook_tool(
    name: str = "get_weather",
    auth_header: str | None = "Bearer sk-live-SECRET-123",
    **overrides: Any,
) -> dict[str, Any]:
    body = {
        "kind": "webhook",
        "name": name,
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "units": {"type": "string", "enum": ["c", "f"]},
            },
            "required": ["city"],
        },
        "webhook_url": "https://api.example.com/weather/{city}",
        "method": "GET",
        "headers": {"Accept": "application/json"},
        "timeout_ms": 5000,
    }
    if auth_header is not None:
        body["auth_header"] = auth_header
    body.update(overrides)
    return body


def wasm_tool(name: str = "word_count", module: bytes = WASM_MODULE) -> dict[str, Any]:
    return {
        "kind": "wasm",
        "name": name,
        "description": "Count words",
        "module": base64.b64encode(module).decode(),
        "parameters": {"text": {"type": "string", "required": True}},
    }
