"""The plain MCP ``tools/call``, read and answered without the SDK's per-request machinery.

Through the SDK a call crosses memory streams, a task group, a dispatcher and pydantic models of
every JSON-RPC message, and a handshake-era answer goes out as a server-sent event: measured,
that was three quarters of the server's time per MCP call (``benchmarks.mcp_door``). The tool's
call itself is the same use case either way (``QuiverMcp._call``); what this module does is
only recognise a request it can answer exactly as the SDK would, and write that answer.

It takes a request only when everything about it is plain: one JSON-RPC request object with an
integer or string id, ``tools/call`` with a string name and object arguments, a JSON content
type, an ``Accept`` naming both JSON and event streams (what the SDK asks for), and either

* the 2026-07-28 era: the SDK's own envelope check (``classify_inbound_request``) passes and no
  routing header is repeated; or
* a handshake-era session that completed its handshake (``notifications/initialized``), is
  open, belongs to the caller's key, and whose ``MCP-Protocol-Version`` is the one it
  negotiated.

Anything else — another method, a batch, a malformed envelope, an older version, a session this
node does not hold — goes to the SDK, which owns every refusal and every other method. The answer
is ``application/json`` (the transport lets a server answer a request with one JSON object);
its body equals the SDK's, which a test checks for every era, outcome and error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import anyio
import orjson
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    InboundLadderRejection,
    classify_inbound_request,
    find_duplicated_routing_header,
)
from mcp_types import SERVER_INFO_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.types import Scope, Send

JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")


@dataclass(frozen=True)
class DirectCall:
    """A plain ``tools/call``: its id, tool, arguments, protocol version and MCP session."""

    id: int | str
    name: str
    arguments: dict[str, Any] | None
    version: str
    mcp_session: str  # "" in the stateless era

    @property
    def modern(self) -> bool:
        return self.version in MODERN_PROTOCOL_VERSIONS


def plain_call(scope: Scope, body: bytes) -> DirectCall | None:
    """The request as a plain ``tools/call``, or None (the SDK takes it)."""
    headers: dict[str, str] = {}
    for name, value in scope["headers"]:
        headers[name.decode("latin-1")] = value.decode("latin-1")
    if headers.get("content-type", "").lower().encode() not in JSON_TYPES:
        return None
    accepted = {part.split(";")[0].strip() for part in headers.get("accept", "").split(",")}
    if not {"application/json", "text/event-stream"} <= accepted:
        return None
    try:
        message = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    if message.get("method") != "tools/call":
        return None
    request_id, params = message.get("id"), message.get("params")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        return None
    arguments = params.get("arguments")
    if arguments is not None and not isinstance(arguments, dict):
        return None
    meta = params.get("_meta")
    if isinstance(meta, dict) and "progressToken" in meta:
        return None  # progress notifications go out on the SDK's stream
    version = headers.get("mcp-protocol-version", "")
    if version in MODERN_PROTOCOL_VERSIONS:
        raw = ((n.decode("latin-1"), v.decode("latin-1")) for n, v in scope["headers"])
        if find_duplicated_routing_header(raw) is not None:
            return None
        if isinstance(classify_inbound_request(message, headers=headers), InboundLadderRejection):
            return None
        return DirectCall(request_id, params["name"], arguments, version, "")
    mcp_session = headers.get("mcp-session-id", "")
    if version not in HANDSHAKE_PROTOCOL_VERSIONS or not mcp_session:
        return None
    return DirectCall(request_id, params["name"], arguments, version, mcp_session)


def stamped(call: DirectCall, result: dict[str, Any], server_info: dict[str, Any]) -> Any:
    """The result as the SDK sends it in the call's era: a 2026-07-28 result says it is
    complete and names the server."""
    if call.modern:
        return {**result, "resultType": "complete", "_meta": {SERVER_INFO_META_KEY: server_info}}
    return result


async def answer(
    send: Send, call: DirectCall, *, result: Any = None, error: dict[str, Any] | None = None
) -> None:
    """The JSON-RPC answer as one JSON object. An error's HTTP status is the SDK's table's in
    the stateless era (its errors are HTTP errors there); 200 in a session, as the SDK sends."""
    status = 200
    if error is not None:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": call.id, "error": error}
        if call.modern:
            status = ERROR_CODE_HTTP_STATUS.get(error["code"], 200)
    else:
        reply = {"jsonrpc": "2.0", "id": call.id, "result": result}
    body = orjson.dumps(reply)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if call.mcp_session:
        headers.append((b"mcp-session-id", call.mcp_session.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class InFlight:
    """A handshake-era session's request in flight, as its transport counts one: its idle
    countdown stops while any is served and restarts when the last ends (the SDK's
    ``StreamableHTTPServerTransport.handle_request`` does this for the requests it serves)."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport

    def __enter__(self) -> None:
        transport = self.transport
        if transport.idle_scope is not None and transport._idle_timeout is not None:
            transport._requests_in_flight += 1
            transport.idle_scope.deadline = math.inf

    def __exit__(self, *exc: object) -> None:
        transport = self.transport
        if transport.idle_scope is not None and transport._idle_timeout is not None:
            transport._requests_in_flight -= 1
            if not transport._requests_in_flight:
                transport.idle_scope.deadline = anyio.current_time() + transport._idle_timeout
