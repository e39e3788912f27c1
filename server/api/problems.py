"""RFC 9457 problem+json: one body shape for every error, each with a stable ``code``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from server.errors import QuiverError, UnavailableError, field_path
from server.ratelimit import RateLimitedLog
from server.storage.database import UNAVAILABLE, is_unavailable

log = logging.getLogger("quiver.api")
unavailable_log = RateLimitedLog(logging.getLogger("quiver.database"), every_s=10.0)
PROBLEM_JSON = "application/problem+json"


def problem(
    status: int, code: str, title: str, detail: str, instance: str | None = None, **extra: Any
) -> JSONResponse:
    body = {
        "type": f"https://quiver.dev/problems/{code}",
        "title": title,
        "status": status,
        "code": code,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


def _field(loc: tuple[Any, ...]) -> str:
    parts = [p if isinstance(p, int) else str(p) for p in loc if p not in WHERE]
    return field_path(parts) or (str(loc[0]) if loc else "")


WHERE = ("body", "query", "path", "header")


async def _quiver_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, QuiverError)
    response = problem(exc.status, exc.code, exc.title, exc.detail, request.url.path, **exc.extra())
    retry_after = getattr(exc, "retry_after_s", None)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    full = "full" in str(exc).lower()  # SQLite: "database or disk is full"
    unavailable_log.warning(
        "database unavailable on %s %s: %s",
        request.method,
        request.url.path,
        str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__,
    )
    error = UnavailableError(
        "the database's disk is full; nothing was changed"
        if full
        else "the database did not answer; nothing was changed, try again shortly"
    )
    return await _quiver_error(request, error)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return problem(
            400,
            "malformed_json",
            "Malformed request body",
            "the body is not valid JSON",
            request.url.path,
        )
    items = [
        {"field": _field(tuple(e.get("loc", ()))), "message": e.get("msg", "invalid")}
        for e in errors
    ]
    detail = f"{items[0]['field']}: {items[0]['message']}" if items else "invalid input"
    return problem(422, "validation_error", "Invalid input", detail, request.url.path, errors=items)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = {
        400: "malformed_json",
        404: "not_found",
        405: "method_not_allowed",
        413: "payload_too_large",
    }.get(exc.status_code, "internal")
    return problem(exc.status_code, code, str(exc.detail), str(exc.detail), request.url.path)


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    """A driver error: the database away (503), or a bug (500)."""
    if is_unavailable(exc):
        return await _unavailable(request, exc)
    return await _unexpected(request, exc)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    if is_unavailable(exc):
        return await _unavailable(request, exc)
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    response = problem(
        500, "internal", "Internal error", "an unexpected error occurred", request.url.path
    )
    # Starlette re-raises after a 500 and the server then closes the connection: say so, so a
    # keep-alive client does not send its next request into a closed socket.
    response.headers["Connection"] = "close"
    return response


async def _client_left(request: Request, exc: Exception) -> JSONResponse:
    """The client went away mid-request (an upload cut short): its unit of work is rolled back
    and nothing was stored. Nobody is left to read an answer, and nothing broke: one line."""
    log.info("the client left during %s %s; nothing was stored", request.method, request.url.path)
    return problem(400, "client_left", "Client left", "the request's body was cut short")


HANDLERS: tuple[tuple[type[Exception], Any], ...] = (
    (ClientDisconnect, _client_left),
    (QuiverError, _quiver_error),
    (RequestValidationError, _validation_error),
    (StarletteHTTPException, _http_error),
    *((kind, _unavailable) for kind in UNAVAILABLE),
    (DBAPIError, _database_error),
)


def install(app: FastAPI) -> None:
    for kind, handler in HANDLERS:
        app.add_exception_handler(kind, handler)
    app.add_exception_handler(Exception, _unexpected)


async def render(request: Request, exc: Exception) -> JSONResponse:
    """The response the app's handlers give ``exc`` (for endpoints served outside routing)."""
    for kind in type(exc).__mro__:
        for handled, handler in HANDLERS:
            if kind is handled:
                response: JSONResponse = await handler(request, exc)
                return response
    return await _unexpected(request, exc)
