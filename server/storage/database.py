"""Engine and session factory for SQLite (embedded default) and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session

from server.errors import UnavailableError
from server.storage import sqlite_driver, text_codec

# A database that does not answer, is restarting, or whose disk is full: what was asked changed
# nothing and may be retried. (Integrity and data errors are not here: they are bugs or input.)
UNAVAILABLE: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sqlite3.OperationalError,  # the driver's own, where a writer speaks to SQLite directly
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,
    ConnectionError,
    TimeoutError,
)
# SQLSTATEs of a server that is going away or not there yet: connection exceptions (08…),
# shutting down / starting up (57P01-57P03), out of connections or disk (53…).
UNAVAILABLE_STATES = ("08", "57P01", "57P02", "57P03", "53")


def is_unavailable(exc: BaseException) -> bool:
    """Does ``exc`` say the database is away (rather than that a statement was wrong)? Asked of
    SQLAlchemy's errors and of the driver's own (the message log speaks asyncpg directly)."""
    if isinstance(exc, (*UNAVAILABLE, UnavailableError)):
        return True
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    cause: BaseException | None = exc
    for _ in range(8):  # the chain is short; a bound, should it ever loop
        if cause is None:
            break
        state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
        if isinstance(state, str) and state.startswith(UNAVAILABLE_STATES):
            return True
        if isinstance(cause, ConnectionError | TimeoutError):
            return True
        cause = cause.__cause__ or getattr(cause, "orig", None)
    return False


# JSON columns hold any text too: what a database refuses is spelled out (``text_codec``)
JSON_CODEC: dict[str, Any] = {
    "json_serializer": text_codec.json_dumps,
    "json_deserializer": text_codec.json_loads,
}


def create_engine(url: str, *, echo: bool = False) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            # 0700: the database holds every tenant's tool source; no other user may read it.
            Path(parsed.database).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        engine = create_async_engine(
            url,
            echo=echo,
            async_creator=sqlite_driver.connector(parsed, timeout=30),
            **JSON_CODEC,
        )
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(
        url, echo=echo, pool_size=10, max_overflow=20, pool_pre_ping=True, **JSON_CODEC
    )


def local_file(url: str) -> Path | None:
    """A database on this node's own disk (an SQLite file); None for a server."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def local_directory(url: str) -> Path | None:
    """Where a database on this node's own disk (an SQLite file) lives; None for a server."""
    found = local_file(url)
    return found.parent if found is not None else None


async def own_sqlite_connection(url: URL) -> sqlite_driver.Connection:
    """A connection to an SQLite database outside the engine's pool, set up as the pool's are:
    for a writer that keeps one open (checking one out of the pool and back costs more than
    SQLite's own work for a small write)."""
    connection = await sqlite_driver.connector(url, timeout=30)()
    await connection.in_one_hop(_sqlite_pragmas, None)
    return connection


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    sqlite_driver.set_up(dbapi_conn)


class UnitOfWork(Session):
    """A session that tells its owners when it committed (the callbacks in
    ``info["on_commit"]``): whatever opened it, the node's caches learn what it changed
    (``Runtime.committed``)."""


@event.listens_for(UnitOfWork, "after_commit")
def _after_commit(session: Session) -> None:
    for on_commit in session.info.get("on_commit", ()):
        on_commit()


def dialect_name(session: AsyncSession) -> str:
    """``postgresql`` or ``sqlite``: the database a session is bound to."""
    bind = session.bind
    assert bind is not None, "every session of this node is bound to its engine"
    return bind.dialect.name


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, sync_session_class=UnitOfWork)


def is_postgres(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "postgresql"


def writer_gate(engine: AsyncEngine) -> AbstractAsyncContextManager[Any]:
    """What a unit of work that writes holds from before it opens: SQLite has one writer, so a
    node's writers queue on the event loop holding no pooled connection — not each asleep in
    SQLite's busy handler with one (1,000 concurrent agent turns ran the pool dry that way).
    PostgreSQL's writers go side by side."""
    return contextlib.nullcontext() if is_postgres(engine) else asyncio.Lock()
