"""SQLite for the async engine: a statement and its rows in one hop to the connection's thread.

SQLAlchemy's driver for async SQLite (aiosqlite) runs every DBAPI step on the connection's
thread, each step a hop of its own: a thread wake-up there and an event-loop wake-up here. A
one-row insert and its commit were six hops: the cursor, the statement, its close, the commit,
and the pool's rollback when the connection went back. A read was five. This connection runs a
statement with its rows and the cursor's close in one hop, and answers a commit or a rollback
with no transaction open (SQLite's own no-op) without one: an insert and commit is two hops,
a read one — and one when the write asks its statement to commit in the same hop
(``commits_with``).

It is aiosqlite's connection, with its thread, its queue and its close, and only the cursor and
the no-op commit and rollback changed; SQLAlchemy's aiosqlite dialect wraps it as it would the
original (``async_creator``), so everything above the DBAPI is unchanged. Statements still never
run on the event loop: a slow one (a report over a million rows) holds its own thread, not the
node.
"""

from __future__ import annotations

import collections
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

import aiosqlite
from sqlalchemy.engine import URL, make_url

Row = tuple[Any, ...]
T = TypeVar("T")
_Outcome = tuple[Any, int, int | None, list[Row]]


def _run(
    conn: sqlite3.Connection, sql: str, parameters: Any, many: bool, commit: bool = False
) -> _Outcome:
    """On the connection's thread: the statement, all its rows, the cursor closed — and, when
    asked, the transaction committed (only if the statement succeeded)."""
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(sql, parameters)
        elif parameters is None:
            cursor.execute(sql)
        else:
            cursor.execute(sql, parameters)
        rows = cursor.fetchall() if cursor.description else []
        outcome = cursor.description, cursor.rowcount, cursor.lastrowid, rows
        if commit:
            conn.commit()
        return outcome
    finally:
        cursor.close()


class Cursor:
    """What SQLAlchemy's adapter asks of an aiosqlite cursor, with the rows already here."""

    arraysize = 1

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._rows: collections.deque[Row] = collections.deque()

    async def __aenter__(self) -> Cursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _execute(self, sql: str, parameters: Any, many: bool) -> Cursor:
        commit, self._connection.commit_next = self._connection.commit_next, False
        # aiosqlite's hop to its thread
        outcome = await self._connection._execute(  # type: ignore[no-untyped-call]
            _run, self._connection._conn, sql, parameters, many, commit
        )
        self.description, self.rowcount, self.lastrowid, rows = outcome
        self._rows = collections.deque(rows)
        return self

    async def execute(self, sql: str, parameters: Any = None) -> Cursor:
        return await self._execute(sql, parameters, False)

    async def executemany(self, sql: str, parameters: Sequence[Any]) -> Cursor:
        return await self._execute(sql, parameters, True)

    async def fetchone(self) -> Row | None:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Row]:
        count = min(size or self.arraysize, len(self._rows))
        return [self._rows.popleft() for _ in range(count)]

    async def fetchall(self) -> list[Row]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        self._rows.clear()


class Connection(aiosqlite.Connection):
    # the next statement commits its transaction in its own hop (``commits_with``); the commit
    # that follows finds none open and takes no hop
    commit_next = False

    def cursor(self) -> Cursor:  # type: ignore[override]
        return Cursor(self)

    async def commit(self) -> None:
        if self._connection is None or self._connection.in_transaction:
            await super().commit()

    async def rollback(self) -> None:
        if self._connection is None or self._connection.in_transaction:
            await super().rollback()

    async def in_one_hop(self, work: Callable[..., T], *args: Any) -> T:
        """``work(sqlite3_connection, *args)`` on this connection's thread, in one hop."""
        result: T = await self._execute(work, self._conn, *args)  # type: ignore[no-untyped-call]
        return result


@contextlib.contextmanager
def commits_with(connection: Any) -> Iterator[None]:
    """The statement run inside commits the transaction in the same hop to the connection's
    thread (a write and its commit: one hop, not two). ``connection`` is SQLAlchemy's
    synchronous connection; any other driver is left alone. The flag never outlives the block:
    a statement that fails before it reaches the driver leaves no commit pending."""
    driver = connection.connection.driver_connection
    if not isinstance(driver, Connection):
        yield
        return
    driver.commit_next = True
    try:
        yield
    finally:
        driver.commit_next = False


async def in_one_hop(connection: Any, work: Callable[..., T], *args: Any) -> T:
    """``work(sqlite3_connection, *args)`` on the connection's thread, in one hop: for a writer
    that runs a whole transaction of statements (``connection``: SQLAlchemy's async one, on
    this driver)."""
    raw = await connection.get_raw_connection()
    driver = raw.driver_connection
    if not isinstance(driver, Connection):
        raise TypeError("in_one_hop needs a connection of this driver")
    return await driver.in_one_hop(work, *args)


PRAGMAS = {"journal_mode": "WAL", "foreign_keys": "ON", "synchronous": "NORMAL"}
BUSY_TIMEOUT_MS = 30_000


def set_up(connection: Any, **pragmas: object) -> None:
    """Every connection's pragmas (``PRAGMAS``, a busy timeout), then ``pragmas``' changes;
    ``connection``: sqlite3's, or SQLAlchemy's adaption of it."""
    cursor = connection.cursor()
    try:
        for name, value in {**PRAGMAS, "busy_timeout": BUSY_TIMEOUT_MS, **pragmas}.items():
            cursor.execute(f"PRAGMA {name}={value}")
    finally:
        cursor.close()


def _connect_args(url: str | URL) -> tuple[Sequence[str], dict[str, Any]]:
    """``sqlite3.connect``'s arguments: the database and options as SQLAlchemy's SQLite dialect
    reads them from the URL (``?uri=true``, ``timeout``, …)."""
    parsed = make_url(url)
    args, options = parsed.get_dialect()().create_connect_args(parsed)
    return args, dict(options)


def connector(url: str | URL, **overrides: Any) -> Callable[[], Awaitable[Connection]]:
    """``async_creator`` for ``url``: its database and options as the URL gives them, then
    ``overrides``."""
    args, options = _connect_args(url)
    options = {**options, **overrides}

    def opened() -> sqlite3.Connection:
        return sqlite3.connect(*args, **options)  # type: ignore[call-overload, no-any-return]

    async def connect() -> Connection:
        connection: Connection = await Connection(opened, 64)  # type: ignore[assignment]
        return connection

    return connect


def inline_connector(url: str | URL) -> Callable[[], sqlite3.Connection] | None:
    """A maker of connections to ``url``'s database for the event loop's own thread (None for
    an in-memory one, which another connection would not see): it waits for no lock (a busy
    database is ``is_busy`` at once) and never checkpoints the write-ahead log (a checkpoint
    syncs files), else set up as the engine's connections are."""
    args, options = _connect_args(url)
    database = str(args[0]) if args else ":memory:"
    if database in ("", ":memory:") or "mode=memory" in database:
        return None

    def connect() -> sqlite3.Connection:
        given = {**options, "timeout": 0, "check_same_thread": False}
        connection: sqlite3.Connection = sqlite3.connect(*args, **given)  # type: ignore[call-overload]
        try:
            set_up(connection, busy_timeout=0, wal_autocheckpoint=0)
        except sqlite3.Error:
            connection.close()
            raise
        return connection

    return connect


def is_busy(exc: sqlite3.OperationalError) -> bool:
    """Another connection holds the database (``SQLITE_BUSY`` or ``SQLITE_LOCKED``, extended
    codes included): a write that found it so took no effect."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc)
