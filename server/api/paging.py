"""Cursor pagination: ``limit`` and an opaque ``cursor`` in, ``next_cursor`` out.

A cursor is the sort key of the last row of the page, base64url-encoded JSON: stable while rows
are added (no offsets), and meaningless to edit. A cursor that does not decode is a 422 naming
``cursor``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Query

from server.errors import FieldError, ValidationFailedError

T = TypeVar("T")
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


def decode_time_cursor(
    cursor: str | None, id_type: Callable[[Any], Any] = str
) -> tuple[datetime, Any] | None:
    """The (time, id) a list ordered by time names as its previous page's last row."""
    key = decode_cursor(cursor, 2)
    if key is None:
        return None
    try:
        return datetime.fromisoformat(key[0]), id_type(key[1])
    except (TypeError, ValueError):
        raise ValidationFailedError(
            [FieldError("not a cursor this list gave out", field="cursor")]
        ) from None


def decode_id_cursor(cursor: str | None) -> int | None:
    """The row id a newest-first list's cursor names (the last row of the previous page)."""
    key = decode_cursor(cursor, 1)
    if key is None:
        return None
    if not isinstance(key[0], int) or isinstance(key[0], bool):
        raise ValidationFailedError([FieldError("not a cursor this list gave out", field="cursor")])
    return key[0]


def page(
    items: Iterable[T], key: Callable[[T], list[Any]], limit: int, cursor: str | None
) -> tuple[list[T], str | None]:
    """One page of ``items`` in ``key`` order, after the row the cursor names; and the cursor of
    the next page (``None`` on the last)."""
    ordered = sorted(items, key=key)
    after = decode_cursor(cursor, len(key(ordered[0])) if ordered else 1)
    if after is not None:
        try:
            ordered = [item for item in ordered if key(item) > after]
        except TypeError:  # a cursor of another list
            raise ValidationFailedError(
                [FieldError("not a cursor this list gave out", field="cursor")]
            ) from None
    chunk = ordered[:limit]
    more = len(ordered) > limit
    return chunk, encode_cursor(*key(chunk[-1])) if more and chunk else None


def keyset(rows: list[T], limit: int, key: Callable[[T], list[Any]]) -> tuple[list[T], str | None]:
    """A page the database read as ``limit + 1`` rows after a cursor's key: the rows to answer,
    and the next page's cursor (``None`` on the last)."""
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, encode_cursor(*key(rows[-1])) if more and rows else None
