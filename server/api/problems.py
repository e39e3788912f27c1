"""RFC 9457 problem+json: one body shape for every error, each with a stable ``code``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from server.errors import QuiverError

log = logging.getLogger("quiver.api")
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
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or str(loc[0]) if loc else ""


async def _quiver_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, QuiverError)
    return problem(exc.status, exc.code, exc.title, exc.detail, request.url.path, **exc.extra())


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
    code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(
        exc.status_code, "internal"
    )
    return problem(exc.status_code, code, str(exc.detail), str(exc.detail), request.url.path)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem(
        500, "internal", "Internal error", "an unexpected error occurred", request.url.path
    )


def install(app: FastAPI) -> None:
    app.add_exception_handler(QuiverError, _quiver_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
