"""``POST /v1/sessions/{sid}/calls`` served outside FastAPI's routing and dependency solving.

A tool call is the hot path: the router's matching and the generic dependency chain cost more
than the sandbox's round trip. This ASGI middleware takes the plain case — a JSON body, no
``Idempotency-Key`` — and answers it with the same pieces the FastAPI route uses
(``authenticate``, ``admit``, ``unit_of_work``, ``answer_call``, the problem renderer), so the
behaviour exists once; anything else (an idempotent retry, another content type) goes on to
the route, which stays the documented one. It sits inside the request id, body cap, rate-limit
header and CORS middlewares, which see it as any route.
"""

from __future__ import annotations

import re
from typing import Any, get_args
from urllib.parse import parse_qsl

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server import logs
from server.api import problems
from server.api.deps import RATE_STATE, admit, authenticate, unit_of_work
from server.api.limits import checked_body, rate_headers
from server.api.views import CallBody
from server.calls.messages import MessageFormat
from server.errors import FieldError, UnauthenticatedError, ValidationFailedError

CALLS_PATH = re.compile(r"^/v1/sessions/([^/]+)/calls$")
FORMATS: tuple[str, ...] = get_args(MessageFormat)
JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")


class CallEndpoint:
    def __init__(self, app: ASGIApp, answer: Any, max_body_bytes: int = 0) -> None:
        self.app = app
        self.answer = answer  # server.api.routes.sessions.answer_call
        self.max_body_bytes = max_body_bytes  # the direct door's cap (the stack's, inside it)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The door inside the middleware stack."""
        match = _plain_call(scope)
        if match is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        response = await self._respond(request, match, None)
        await response(scope, receive, send)

    def direct(self, scope: Scope) -> str | None:
        """The session id of a plain call that may take the direct door (else None)."""
        sid = _plain_call(scope)
        if sid is None:
            return None
        for name, _ in scope["headers"]:
            if name == b"origin":
                return None
        return sid

    async def serve_direct(self, scope: Scope, receive: Receive, send: Send, sid: str) -> None:
        """The direct door: the middleware stack's work for this request, and the call."""
        token, request_id = logs.start_request(scope)
        try:

            async def send_refusal(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), request_id]
                await send(message)

            body = await checked_body(scope, receive, send_refusal, self.max_body_bytes)
            if body is None:
                return  # refused (answered) or the client left
            request = Request(scope, receive)
            response = await self._respond(request, sid, body)
            response.raw_headers.append(request_id)
            admitted = scope.get("state", {}).get(RATE_STATE)
            if admitted is not None:
                response.raw_headers.extend(rate_headers(admitted))
            await response(scope, receive, send)
        finally:
            logs.end_request(token)

    async def _respond(self, request: Request, sid: str, body: bytes | None) -> Any:
        try:
            return await self._call(request, sid, body)
        except Exception as exc:  # noqa: BLE001 - the route's own error handling, outside routing:
            # a QuiverError answers its code, the database away 503 `unavailable`, anything else
            # is logged with its traceback and answers 500 `internal` (problems.render)
            return await problems.render(request, exc)

    async def _call(self, request: Request, sid: str, body: bytes | None) -> Any:
        """In the route's order: the caller (401, 403, 429), then the input (422), then the call."""
        runtime = request.app.state.runtime
        token = _bearer(request)
        async with unit_of_work(runtime) as store:
            principal = await authenticate(runtime, store, token)
            admitted = await admit(runtime, store, principal)
            if admitted is not None:
                request.scope.setdefault("state", {})[RATE_STATE] = admitted
            query = dict(parse_qsl(request.scope["query_string"].decode("latin-1"), True))
            fmt = query.get("format")
            if fmt is not None and fmt not in FORMATS:
                message = f"must be one of {', '.join(FORMATS)}"
                raise ValidationFailedError([FieldError(message, field="format")])
            try:
                call = CallBody.model_validate_json(
                    body if body is not None else await request.body()
                )
            except ValidationError as exc:
                errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
                raise RequestValidationError(errors) from None
            return await self.answer(sid, call, principal, runtime, store, query.get("tenant"), fmt)  # fmt: skip


def _plain_call(scope: Scope) -> str | None:
    """The session id of a plain call request (else None: the route takes it)."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    match = CALLS_PATH.match(scope["path"])
    if match is None:
        return None
    content_type = None
    for name, value in scope["headers"]:
        if name == b"idempotency-key":
            return None
        if name == b"content-type":
            content_type = value.lower()
    return match.group(1) if content_type in JSON_TYPES else None


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise UnauthenticatedError("send `Authorization: Bearer <api key>`")
    return token.strip()
