"""Cursor pagination: ``limit`` and an opaque ``cursor`` in, ``next_cursor`` out.

A cursor is the sort key of the last row of the page, base64url-encoded JSON: stable while rows
are added (no offsets), and meaningless to edit. A cursor that does not decode is a 422 naming
``cursor``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any

import orjson
from fastapi import Query

from server.errors import FieldError, ValidationFailedError

MAX_LIMIT = 1000
LimitQuery = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="rows per page")]
CursorQuery = Annotated[
    str | None, Query(max_length=512, description="next_cursor of the previous page")
]


def encode_cursor(*key: Any) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(list(key))).decode().rstrip("=")


def decode_cursor(cursor: str | None, arity: int) -> list[Any] | None:
    if cursor is None:
        return None
    try:
        key = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error, orjson.JSONDecodeError):
        key = None
    if not isinstance(key, list) or len(key) != arity:
        raise ValidationFailedError([FieldError("not a cursor this list gave out", field="cursor")])
    return key
