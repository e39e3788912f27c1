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
from starlette.types import ASGIApp, Receive, Scope, Send

from server.api import problems
from server.api.deps import RATE_STATE, admit, authenticate, unit_of_work
from server.api.views import CallBody
from server.calls.messages import MessageFormat
from server.errors import FieldError, UnauthenticatedError, ValidationFailedError

CALLS_PATH = re.compile(r"^/v1/sessions/([^/]+)/calls$")
FORMATS: tuple[str, ...] = get_args(MessageFormat)
JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")


class CallEndpoint:
    def __init__(self, app: ASGIApp, answer: Any) -> None:
        self.app = app
        self.answer = answer  # server.api.routes.sessions.answer_call

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = _plain_call(scope)
        if match is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        try:
            response = await self._call(request, match)
        except Exception as exc:  # noqa: BLE001 - the route's own error handling, outside routing:
            # a QuiverError answers its code, the database away 503 `unavailable`, anything else
            # is logged with its traceback and answers 500 `internal` (problems.render)
            response = await problems.render(request, exc)
        await response(scope, receive, send)

    async def _call(self, request: Request, sid: str) -> Any:
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
                body = CallBody.model_validate_json(await request.body())
            except ValidationError as exc:
                errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
                raise RequestValidationError(errors) from None
            return await self.answer(sid, body, principal, runtime, store, query.get("tenant"), fmt)  # fmt: skip


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
