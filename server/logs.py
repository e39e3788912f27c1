"""Structured JSON log lines for the server process.

Every line carries the request id (``X-Request-ID``, taken from the client when it is sane,
else generated) and, while a tool call runs, its tenant, session and tool — bound once in a
context variable rather than passed to each log call.
"""

from __future__ import annotations

import json
import logging
import random
import re
import traceback
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from server import known_secrets

if TYPE_CHECKING:  # annotations only: the call path logs without loading the web framework
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

FIELDS = ("request_id", "tenant", "session", "tool")
# the default is never mutated: binding replaces the dict
_context: ContextVar[dict[str, Any]] = ContextVar("quiver_log_context", default={})  # noqa: B039
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
            line["exception"] = record.exc_text or self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def start_request(scope: Scope) -> tuple[Token[dict[str, Any]], tuple[bytes, bytes]]:
    """Bind a request's id to its log lines — the client's ``X-Request-ID`` when it is a sane
    one, else a new id — and the header that echoes it (``end_request`` unbinds it)."""
    given = b""
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            given = value
            break
    text = given.decode("latin-1")
    # unique, not secret: 128 random bits, without a read of the kernel's random source for
    # every request as uuid4 makes
    request_id = text if SANE_ID.match(text) else f"{random.getrandbits(128):032x}"  # noqa: S311
    return _context.set({"request_id": request_id}), (b"x-request-id", request_id.encode())


def end_request(token: Token[dict[str, Any]]) -> None:
    _context.reset(token)


class RequestIdMiddleware:
    """Gives each HTTP request an id, echoed as ``X-Request-ID`` and bound for its log lines."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        token, header = start_request(scope)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            end_request(token)


def _redacting(make: Any) -> Any:
    def make_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = make(*args, **kwargs)
        if not known_secrets.KNOWN:
            return record
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit the message: shown raw
            message = f"{record.msg!r} {record.args!r}"
        cleaned = known_secrets.redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_info[1] is not None:
            text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
            record.exc_text = known_secrets.redact(text)
        return record

    make_record.redacts = True  # type: ignore[attr-defined]
    return make_record


def redact_every_record() -> None:
    """No log line, whichever handler writes it, shows a secret this node has decrypted: each
    record is cleaned as it is made (its message and its traceback), before any handler or
    formatter sees it."""
    current = logging.getLogRecordFactory()
    if not getattr(current, "redacts", False):
        logging.setLogRecordFactory(_redacting(current))


def configure(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
