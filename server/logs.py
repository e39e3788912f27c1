"""Structured JSON log lines for the server process.

Every line carries the request id (``X-Request-ID``, taken from the client when it is sane,
else generated) and, while a tool call runs, its tenant, session and tool — bound once in a
context variable rather than passed to each log call.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FIELDS = ("request_id", "tenant", "session", "tool")
_context: ContextVar[dict[str, Any]] = ContextVar("quiver_log_context", default={})  # noqa: B039 - never mutated
SANE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def bind(**values: Any) -> None:
    """Add fields to every log line of the current request (or task)."""
    _context.set({**_context.get(), **values})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        bound = _context.get()
        for key in FIELDS:
            value = getattr(record, key, None) or bound.get(key)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class RequestIdMiddleware:
    """Gives each HTTP request an id, echoed as ``X-Request-ID`` and bound for its log lines."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if SANE_ID.match(given) else uuid.uuid4().hex
        token = _context.set({"request_id": request_id})
        header = (b"x-request-id", request_id.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            _context.reset(token)


def configure(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
