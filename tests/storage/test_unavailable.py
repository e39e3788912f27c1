"""Which errors say the database is away (503 `unavailable`, retry) rather than that a
statement was wrong: SQLAlchemy's, and the drivers' own (the message log speaks asyncpg
directly, the call log's SQLite writer sqlite3)."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from server.errors import UnavailableError
from server.storage.database import is_unavailable


def wrapped(error: BaseException) -> DBAPIError:
    return DBAPIError("INSERT …", {}, error)


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(111, "refused"),
        TimeoutError(),
        OperationalError("SELECT 1", {}, Exception("disk I/O error")),
        asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
        asyncpg.CannotConnectNowError("the database system is starting up"),
        asyncpg.AdminShutdownError("terminating connection due to administrator command"),
        asyncpg.TooManyConnectionsError("sorry, too many clients already"),
        wrapped(asyncpg.ConnectionDoesNotExistError("closed")),
        UnavailableError("the database is unavailable"),
        sqlite3.OperationalError("database is locked"),  # the call log's SQLite writer's own
    ],
    ids=type,
)
def test_errors_of_a_database_that_is_away(error: BaseException) -> None:
    assert is_unavailable(error)


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.UniqueViolationError("duplicate key value violates unique constraint"),
        asyncpg.UndefinedColumnError("column does not exist"),
        IntegrityError("INSERT …", {}, Exception("UNIQUE constraint failed")),
        wrapped(asyncpg.NotNullViolationError("null value in column")),
        sqlite3.IntegrityError("NOT NULL constraint failed: tool_calls.tenant_id"),
        RuntimeError("a bug"),
    ],
    ids=type,
)
def test_errors_of_a_wrong_statement_or_a_bug(error: BaseException) -> None:
    assert not is_unavailable(error)
