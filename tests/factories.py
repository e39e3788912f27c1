"""Tool bodies for tests."""

from __future__ import annotations

import base64
from typing import Any

# A minimal WASI command (from WAT): writes {"ok": true} to stdout. Bytes, so the test process
# need not import wasmtime.
WASM_MODULE = (
    b"\x00asm\x01\x00\x00\x00\x01\x0c\x02`\x04\x7f\x7f\x7f\x7f\x01\x7f`\x00\x00\x02#\x01"
    b"\x16wasi_snapshot_preview1\x08fd_write\x00\x00\x03\x02\x01\x01\x05\x03\x01\x00\x01"
    b"\x07\x13\x02\x06memory\x02\x00\x06_start\x00\x01\n\x1d\x01\x1b\x00A\x00A\x106\x02"
    b"\x00A\x04A\x0c6\x02\x00A\x01A\x00A\x01A\x08\x10\x00\x1a\x0b\x0b\x12\x01\x00A\x10"
    b'\x0b\x0c{"ok": true}\x00\x0b\x04name\x01\x04\x01\x00\x01w'
)


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
