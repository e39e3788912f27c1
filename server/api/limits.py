"""Before any route reads a request: the body cap, and input that cannot be stored or passed
on (``server.inputs``: NUL, lone surrogates, deep nesting — in the body, the query or the path)
refused with 422 naming the field."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server import inputs
from server.api.deps import RATE_STATE
from server.quotas import Admitted

# Top-level body keys whose strings go to a tool as they are (and are logged escaped); "params"
# holds an MCP tools/call's arguments.
NUL_OK = frozenset({"arguments", "result", "variables", "params"})


class BodyLimitMiddleware:
    """Buffers request bodies up to ``max_bytes``; past that, answers 413 without calling the
    app."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS") or _streamed(scope):
            refused = _url_problem(scope)
            if refused is not None:
                await _refuse(scope, send, *refused)
                return
            await self.app(scope, receive, send)
            return
        body = await checked_body(scope, receive, send, self.max_bytes)
        if body is None:
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def checked_body(scope: Scope, receive: Receive, send: Send, max_bytes: int) -> bytes | None:
    """A request's whole body, once its URL and body passed the checks; ``None`` when they did
    not — answered here already: 413 past ``max_bytes``, 422 naming the field for a NUL in the
    URL or input that cannot be stored — or when the client left."""
    refused = _url_problem(scope)
    if refused is not None:
        await _refuse(scope, send, *refused)
        return None
    declared = None
    for name, value in scope["headers"]:
        if name == b"content-length":
            declared = value
            break
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        await _too_large(scope, send, max_bytes)
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            await _too_large(scope, send, max_bytes)
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    if inputs.may_need_a_look(body):
        refused = _body_problem(body)
        if refused is not None:
            await _refuse(scope, send, *refused)
            return None
    return body


async def _too_large(scope: Scope, send: Send, max_bytes: int) -> None:
    detail = f"the body is larger than {max_bytes} bytes"
    await _problem(scope, send, 413, "payload_too_large", "Request body too large", detail)


STREAMED = re.compile(r"^/v1/datasets/[^/]+$")


def _streamed(scope: Scope) -> bool:
    """Bodies a route reads as a stream, with caps and per-line checks of its own: data set
    uploads (``server.api.routes.datasets``), which may be far larger than any other body."""
    return scope["method"] == "PUT" and STREAMED.match(scope.get("path", "")) is not None


def _url_problem(scope: Scope) -> tuple[str, str] | None:
    if "\x00" in scope.get("path", ""):
        return "path", "contains a NUL character"
    query: bytes = scope.get("query_string", b"")
    if b"%00" in query or b"\x00" in query:
        for part in query.split(b"&"):
            if b"%00" in part or b"\x00" in part:
                name = part.split(b"=", 1)[0].decode("latin-1")
                return name or "query", "contains a NUL character, which cannot be stored"
    return None


def _body_problem(body: bytes) -> tuple[str, str] | None:
    if inputs.json_depth(body) > inputs.MAX_DEPTH:
        return "body", f"nested deeper than {inputs.MAX_DEPTH} levels"
    if body.count(b"{") + body.count(b"[") > inputs.MAX_CONTAINERS:
        return "body", f"more than {inputs.MAX_CONTAINERS} objects and arrays"
    try:
        value: Any = json.loads(body)
    except (ValueError, RecursionError):
        return None  # not JSON: the route answers 400 malformed_json
    return inputs.problem_in(value, nul_ok=NUL_OK)


async def _refuse(scope: Scope, send: Send, field: str, message: str) -> None:
    errors = [{"field": field, "message": message}]
    await _problem(
        scope, send, 422, "validation_error", "Invalid input", f"{field}: {message}", errors=errors
    )


async def _problem(
    scope: Scope, send: Send, status: int, code: str, title: str, detail: str, **extra: Any
) -> None:
    """A problem+json answer sent before any route runs (so without FastAPI's handlers)."""
    payload = json.dumps(
        {
            "type": f"https://quiver.dev/problems/{code}",
            "title": title,
            "status": status,
            "code": code,
            "detail": detail,
            "instance": scope.get("path"),
            **extra,
        }
    ).encode()
    headers = [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


class RateLimitHeadersMiddleware:
    """Tells a client where it stands: ``RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (the
    IETF draft's fields) from the tightest rate its request was counted against."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_rate(message: Message) -> None:
            if message["type"] == "http.response.start":
                admitted = scope.get("state", {}).get(RATE_STATE)
                if admitted is not None:
                    message["headers"] = [*message.get("headers", []), *rate_headers(admitted)]
            await send(message)

        await self.app(scope, receive, send_with_rate)


def rate_headers(admitted: Admitted) -> list[tuple[bytes, bytes]]:
    return [
        (b"ratelimit-limit", str(admitted.limit).encode()),
        (b"ratelimit-remaining", str(admitted.remaining).encode()),
        (b"ratelimit-reset", str(admitted.reset_s).encode()),
    ]


def replayed(body: bytes, receive: Receive) -> Receive:
    """``receive`` for an app after the body was read: that body, then what the connection says
    next (a disconnect)."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay
