"""The hot paths served outside FastAPI's routing and dependency solving: a tool call
(``POST /v1/sessions/{sid}/calls``), an agent loop's turn (``POST …/messages``), a snapshot
(``GET /v1/bots/{bot}/snapshot`` and ``GET /v1/sessions/{sid}/snapshot``: measured, FastAPI's
route matching and dependency solving were four fifths of a warm snapshot's server time) and an
MCP client's request (``POST /mcp``, handed to the MCP door with the stack's work done for it).

Their routers' matching and generic dependency chains cost more than the sandbox's round trip
or the loop's own work. This ASGI middleware takes the plain case — a JSON body, no
``Idempotency-Key``; a snapshot asked for with at most ``format`` — and answers it with the
same pieces the FastAPI routes use (``authenticate``, ``admit``, ``unit_of_work``, the routes'
own ``answer_…`` and ``send_message``, the problem renderer), so the behaviour exists once;
anything else (an idempotent retry, another content type, another query) goes on to the route,
which stays the documented one. It sits inside the request id, body
cap, rate-limit header and CORS middlewares, which see it as any route; a request without
``Origin`` (an agent's server, not a page) may take its direct door past them all.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server import logs
from server.api import problems
from server.api.deps import RATE_STATE, admit, authenticate, unit_of_work
from server.api.limits import checked_body, rate_headers, replayed
from server.api.views import CallBody, MessageBody
from server.calls.messages import MessageFormat
from server.errors import UnauthenticatedError
from server.registry.formats import FORMATS

HOT_PATH = re.compile(r"^/v1/sessions/([^/]+)/(calls|messages)$")
SNAPSHOT_PATH = re.compile(r"^/v1/(bots|sessions)/([^/]+)/snapshot$")
FORMAT: TypeAdapter[MessageFormat] = TypeAdapter(MessageFormat)
JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")


Hot = tuple[str, str]  # a session id and "calls" or "messages"; a bot or session id and
# "bots" or "sessions" (their snapshot); or ("", "mcp")
MCP: Hot = ("", "mcp")


class DirectDoor:
    def __init__(
        self,
        app: ASGIApp,
        answer_call: Any,
        send_message: Any,
        bot_snapshot: Any,
        session_snapshot: Any,
        max_body_bytes: int = 0,
        mcp: ASGIApp | None = None,
    ) -> None:
        self.app = app
        self.snapshots = {"bots": bot_snapshot, "sessions": session_snapshot}  # the routes' own
        self.mcp = mcp  # the MCP door (server.api.mcp.QuiverMcp), past the stack only
        self.answer_call = answer_call  # server.api.routes.sessions.answer_call
        self.send_message = send_message  # server.api.routes.sessions.send_message
        self.max_body_bytes = max_body_bytes  # the direct door's cap (the stack's, inside it)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The door inside the middleware stack."""
        hot = _plain(scope)
        if hot is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        response = await self._respond(request, hot, None)
        await response(scope, receive, send)

    def direct(self, scope: Scope) -> Hot | None:
        """The hot path a plain request without ``Origin`` takes by the direct door (else None)."""
        hot = _plain(scope)
        if hot is None and self.mcp is not None and _mcp_post(scope):
            hot = MCP
        if hot is None:
            return None
        for name, _ in scope["headers"]:
            if name == b"origin":
                return None
        return hot

    async def serve_direct(self, scope: Scope, receive: Receive, send: Send, hot: Hot) -> None:
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
            if hot == MCP and self.mcp is not None:
                await self.mcp(scope, replayed(body, receive), send_refusal)
                return
            request = Request(scope, receive)
            response = await self._respond(request, hot, body)
            response.raw_headers.append(request_id)
            admitted = scope.get("state", {}).get(RATE_STATE)
            if admitted is not None:
                response.raw_headers.extend(rate_headers(admitted))
            await response(scope, receive, send)
        finally:
            logs.end_request(token)

    async def _respond(self, request: Request, hot: Hot, body: bytes | None) -> Any:
        sid, kind = hot
        try:
            if kind == "calls":
                return await self._call(request, sid, body)
            if kind == "messages":
                return await self._message(request, sid, body)
            return await self._snapshot(request, kind, sid)
        except Exception as exc:  # noqa: BLE001 - the route's own error handling, outside routing:
            # a QuiverError answers its code, the database away 503 `unavailable`, anything else
            # is logged with its traceback and answers 500 `internal` (problems.render)
            return await problems.render(request, exc)

    async def _call(self, request: Request, sid: str, body: bytes | None) -> Any:
        """In the route's order: the caller (401, 403, 429), then the input (422), then the call."""
        runtime = request.app.state.runtime
        token = _bearer(request)
        async with unit_of_work(runtime) as store:
            principal = await _caller(runtime, store, token, request)
            query = _query(request)
            fmt = _format(query.get("format"))
            call = await _parsed(CallBody, request, body)
            return await self.answer_call(
                sid, call, principal, runtime, store, query.get("tenant"), fmt
            )

    async def _snapshot(self, request: Request, kind: str, name: str) -> Any:
        """As the route: the caller, then the snapshot (its format checked by ``_plain``)."""
        runtime = request.app.state.runtime
        token = _bearer(request)
        fmt = _query(request).get("format", "native")
        if_none_match = request.headers.get("if-none-match")
        async with unit_of_work(runtime) as store:
            principal = await _caller(runtime, store, token, request)
            answer = self.snapshots[kind]
            return await answer(name, principal, runtime, store, None, fmt, if_none_match)

    async def _message(self, request: Request, sid: str, body: bytes | None) -> Any:
        """As the route: the caller in a unit of work of its own, over before the turn (which
        opens its own), then the input, then the turn."""
        runtime = request.app.state.runtime
        token = _bearer(request)
        async with unit_of_work(runtime) as store:
            principal = await _caller(runtime, store, token, request)
        message = await _parsed(MessageBody, request, body)
        return await self.send_message(
            sid, message, principal, runtime, _query(request).get("tenant")
        )


async def _caller(runtime: Any, store: Any, token: str, request: Request) -> Any:
    """The caller, counted against its rates, as the routes' dependency does (401, 403, 429)."""
    principal = await authenticate(runtime, store, token)
    admitted = await admit(runtime, store, principal)
    if admitted is not None:
        request.scope.setdefault("state", {})[RATE_STATE] = admitted
    return principal


def _query(request: Request) -> dict[str, str]:
    return dict(parse_qsl(request.scope["query_string"].decode("latin-1"), True))


async def _parsed(model: Any, request: Request, body: bytes | None) -> Any:
    """The body as ``model``; invalid, the 422 the route answers."""
    try:
        return model.model_validate_json(body if body is not None else await request.body())
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
        raise RequestValidationError(errors) from None


def _format(given: str | None) -> MessageFormat | None:
    """``?format=``, checked as the route's query parameter is: the same 422, word for word."""
    if given is None:
        return None
    try:
        return FORMAT.validate_python(given)
    except ValidationError as exc:
        errors = [{**e, "loc": ("query", "format")} for e in exc.errors()]
        raise RequestValidationError(errors) from None


def _plain(scope: Scope) -> Hot | None:
    """The hot path of a plain request (else None: the route takes it)."""
    if scope["type"] != "http":
        return None
    if scope["method"] == "GET":
        return _plain_snapshot(scope)
    if scope["method"] != "POST":
        return None
    match = HOT_PATH.match(scope["path"])
    if match is None:
        return None
    content_type = None
    for name, value in scope["headers"]:
        if name == b"idempotency-key":
            return None
        if name == b"content-type":
            content_type = value.lower()
    return (match.group(1), match.group(2)) if content_type in JSON_TYPES else None


def _plain_snapshot(scope: Scope) -> Hot | None:
    """A snapshot asked for with no query but a known ``format`` (anything else — ``strict``,
    ``tenant``, an unknown format — is the route's to parse and answer)."""
    match = SNAPSHOT_PATH.match(scope["path"])
    if match is None:
        return None
    query = parse_qsl(scope["query_string"].decode("latin-1"), True)
    if any(name != "format" or value not in FORMATS for name, value in query) or len(query) > 1:
        return None
    return (match.group(2), match.group(1))


def _mcp_post(scope: Scope) -> bool:
    return bool(scope["method"] == "POST" and scope["path"] == "/mcp")


def _bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise UnauthenticatedError("send `Authorization: Bearer <api key>`")
    return token.strip()
