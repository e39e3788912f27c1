"""Model providers and a session's messages."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from server.errors import ConflictError, NotFoundError, UnavailableError
from server.records import StoredProvider
from server.secretbox import SecretBox
from server.storage import sqlite_driver, text_codec
from server.storage.database import (
    dialect_name,
    is_postgres,
    own_sqlite_connection,
    writer_gate,
)
from server.storage.tables import EvalRunRow, JSONType, MessageRow, ProviderRow, utcnow


def provider_binding(tenant_id: str, name: str) -> str:
    return f"provider-key/{tenant_id}/{name}"


class ProviderRepository:
    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box

    async def put(
        self,
        tenant_id: str,
        name: str,
        kind: str,
        base_url: str | None,
        models: list[str],
        api_key: str | None,
    ) -> tuple[ProviderRow, bool]:
        """Create or replace; a ``None`` key keeps the stored one."""
        row = await self.session.get(ProviderRow, (tenant_id, name))
        created = row is None
        if row is None:
            row = ProviderRow(tenant_id=tenant_id, name=name, created_at=utcnow())
            self.session.add(row)
        row.kind, row.base_url, row.models, row.updated_at = kind, base_url, models, utcnow()
        if api_key is not None:
            row.api_key_ct = self.box.encrypt(api_key, provider_binding(tenant_id, name))
        await self.session.flush()
        return row, created

    async def get(self, tenant_id: str, name: str) -> ProviderRow:
        row = await self.session.get(ProviderRow, (tenant_id, name))
        if row is None:
            raise NotFoundError(f"provider {name!r} not found")
        return row

    async def find(self, tenant_id: str, name: str) -> ProviderRow | None:
        return await self.session.get(ProviderRow, (tenant_id, name))

    async def list(self, tenant_id: str) -> list[ProviderRow]:
        stmt = (
            select(ProviderRow).where(ProviderRow.tenant_id == tenant_id).order_by(ProviderRow.name)
        )
        return list(await self.session.scalars(stmt))

    async def delete(self, tenant_id: str, name: str) -> None:
        await self.session.delete(await self.get(tenant_id, name))

    def api_key(self, row: StoredProvider) -> str | None:
        if row.api_key_ct is None:
            return None
        return self.box.decrypt(row.api_key_ct, provider_binding(row.tenant_id, row.name))

    async def rotate(self) -> int:
        changed = 0
        for row in await self.session.scalars(select(ProviderRow)):
            if row.api_key_ct and self.box.needs_rotation(row.api_key_ct):
                binding = provider_binding(row.tenant_id, row.name)
                row.api_key_ct = self.box.encrypt(
                    self.box.decrypt(row.api_key_ct, binding), binding
                )
                changed += 1
        return changed


@dataclass(frozen=True, slots=True)
class Message:
    """A message as the turn that wrote it knows it (what the history it carries needs)."""

    id: str
    seq: int
    role: str
    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None


# Every column a message may leave out: one insert of several rows names the same columns in
# each (an executemany takes the first row's), so a user's message beside an assistant's with
# tool calls and tokens keeps them.
BLANK_MESSAGE: dict[str, Any] = {
    "content": None, "tool_calls": None, "tool_call_id": None, "name": None, "turn": None,
    "model": None, "input_tokens": 0, "output_tokens": 0, "cached_tokens": 0,
    "tool_round": False, "offered": None,
}  # fmt: skip


class MessageLog:
    """Appends a session's messages, atomically. A message is written once and never read back
    by the turn that wrote it, so an ORM unit of work (identity map, flush plan, attribute
    events) would be all overhead — measured, it cost as much as the database's own work.

    SQLite writes the rows and commits them in one hop to its connection's thread, on the
    driver's own connection (``_SqliteMessages``). PostgreSQL writes with one prepared statement
    on asyncpg itself (``_PostgresMessages``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.writes = writer_gate(engine)  # SQLite's writers queue here, before connecting
        self.postgres = _PostgresMessages(engine) if is_postgres(engine) else None
        self.sqlite = None if self.postgres else _SqliteMessages(engine)

    async def close(self) -> None:
        if self.postgres is not None:
            await self.postgres.close()
        if self.sqlite is not None:
            async with self.writes:
                await self.sqlite.close()

    async def append(
        self,
        session_id: str,
        tenant_id: str,
        bot: str,
        messages: list[dict[str, Any]],
        seq: int | None = None,
    ) -> list[Message]:
        """``messages`` (column values, an ``id`` if the caller chose it) as the session's next
        ones, numbered from ``seq`` when the caller knows it (a turn carries its history), else
        from the one after the last. A taken number is a conflict, never a message overwritten
        or reordered."""
        if not messages:
            return []
        if self.postgres is not None:
            return await self.postgres.append(session_id, tenant_id, bot, messages, seq)
        assert self.sqlite is not None  # one or the other
        async with self.writes:  # the one connection is this lock's
            return await self.sqlite.append(session_id, tenant_id, bot, messages, seq)


def _rows(
    session_id: str, tenant_id: str, bot: str, messages: list[dict[str, Any]], seq: int
) -> list[dict[str, Any]]:
    now = utcnow()
    return [
        {
            **BLANK_MESSAGE,
            "id": str(uuid.uuid4()),
            "session_id": session_id,
            "tenant_id": tenant_id,
            "bot": bot,
            "seq": seq + i,
            "created_at": now,
            **fields,
        }
        for i, fields in enumerate(messages)
    ]


def _written(rows: list[dict[str, Any]]) -> list[Message]:
    return [
        Message(
            r["id"],
            r["seq"],
            r["role"],
            r["content"],
            r["tool_calls"],
            r["tool_call_id"],
            r["name"],
        )
        for r in rows
    ]


class _SqliteMessages:
    """SQLite: the rows' values made by the columns' own bind processors (so stored exactly as
    SQLAlchemy would store them), inserted and committed on a connection of the log's own, set
    up as the engine's are and kept open (the message log's writers take turns on it).

    A small write (``INLINE_BYTES``) is made on the event loop's own thread when SQLite takes it
    at once: that connection waits for no lock (``busy_timeout`` 0), so another writer holding
    the database sends the write to the log's thread instead, where it waits its turn. Nor does
    that connection ever checkpoint the write-ahead log: a checkpoint's syncs would hold the
    loop. One write in ``CHECKPOINT_EVERY`` goes by the thread, whose connection checkpoints as
    the engine's do, so the log stays bounded even when no other connection writes.

    Measured alone (``benchmarks/message_log.py``), a two-row write took 0.37–0.45 ms p50 as one
    Core insert in one hop into SQLAlchemy's synchronous core, 0.36 ms so on a connection of the
    engine's pool, 0.20 ms in one hop to the log's own connection's thread (the hop alone: 0.07),
    and 0.08–0.09 ms on the loop's thread, against 0.24–0.28 ms by the hop in the same run. On
    the loop the write costs it 90–100 us of CPU against 60–70 by the hop: the thread's Python
    holds the interpreter's lock all the same."""

    INLINE_BYTES = 64 << 10  # a larger write goes to the thread (a tool's long result)
    CHECKPOINT_EVERY = 256

    def __init__(self, engine: AsyncEngine) -> None:
        self.url = engine.url
        self.connection: sqlite_driver.Connection | None = None
        self.inline = sqlite_driver.inline_connector(engine.url)  # None: an in-memory database
        self.loop_connection: sqlite3.Connection | None = None
        self.count = 0
        dialect = engine.dialect
        self.columns = [
            (c.name, c.type.dialect_impl(dialect).bind_processor(dialect))
            for c in MessageRow.__table__.columns
        ]
        self.insert = (
            f"INSERT INTO {MessageRow.__tablename__} ({', '.join(_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in _COLUMNS)})"
        )
        self.last = f"SELECT max(seq) FROM {MessageRow.__tablename__} WHERE session_id = ?"

    async def close(self) -> None:
        if self.loop_connection is not None:
            loop_connection, self.loop_connection = self.loop_connection, None
            loop_connection.close()
        if self.connection is not None:
            connection, self.connection = self.connection, None
            await connection.close()

    async def append(
        self,
        session_id: str,
        tenant_id: str,
        bot: str,
        messages: list[dict[str, Any]],
        seq: int | None,
    ) -> list[Message]:
        """Called by one writer at a time (the message log's lock)."""

        def write(conn: sqlite3.Connection) -> list[dict[str, Any]]:
            with conn:  # committed, or rolled back if anything fails (and raised)
                first = seq
                if first is None:  # the unique number still refuses a race
                    (last,) = conn.execute(self.last, (session_id,)).fetchone()
                    first = (last or 0) + 1
                rows = _rows(session_id, tenant_id, bot, messages, first)
                conn.executemany(self.insert, [self._values(r) for r in rows])
            return rows

        try:
            rows = self._on_the_loop(write, messages)
            if rows is None:
                if self.connection is None:
                    self.connection = await own_sqlite_connection(self.url)
                rows = await self.connection.in_one_hop(write)
        except sqlite3.IntegrityError:
            raise ConflictError("another message of this session is being answered") from None
        return _written(rows)

    def _on_the_loop(
        self,
        write: Callable[[sqlite3.Connection], list[dict[str, Any]]],
        messages: list[dict[str, Any]],
    ) -> list[dict[str, Any]] | None:
        """``write`` made on the event loop's thread; None: it goes to the log's thread (it is
        large, it is the one in ``CHECKPOINT_EVERY``, or another writer holds the database)."""
        self.count += 1
        if self.inline is None or self.count % self.CHECKPOINT_EVERY == 0:
            return None
        size = sum(
            len(str(m.get("content") or "")) + len(str(m.get("tool_calls") or "")) for m in messages
        )
        if size > self.INLINE_BYTES:
            return None
        try:
            if self.loop_connection is None:
                self.loop_connection = self.inline()
            return write(self.loop_connection)
        except sqlite3.OperationalError as exc:
            if sqlite_driver.is_busy(exc):
                return None  # rolled back: the thread's connection waits for its turn
            raise

    def _values(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row[name] if process is None else process(row[name]) for name, process in self.columns
        )


_COLUMNS = [c.name for c in MessageRow.__table__.columns]
_JSON_COLUMNS = {c.name for c in MessageRow.__table__.columns if c.type is JSONType}
_INSERT = (
    f"INSERT INTO {MessageRow.__tablename__} ({', '.join(_COLUMNS)}) "
    f"VALUES ({', '.join(f'${i}' for i in range(1, len(_COLUMNS) + 1))})"
)


class _PostgresMessages:
    """PostgreSQL: the rows as one prepared statement's executemany (atomic in asyncpg, so no
    BEGIN and COMMIT round trips) on an asyncpg pool of its own, in autocommit.

    Measured alone (``benchmarks/message_log.py``), a two-row write took 0.90 ms p50 through
    SQLAlchemy (a pooled connection in autocommit with a pre-ping) and 0.53 ms here: its checkout,
    ping and adaption layers cost most of what the server's own work does. The pool checks a
    connection is still open as it hands it out (a restarted server has closed it: a new one is
    made), and resets none: the one statement these connections run leaves no state behind."""

    MAX_CONNECTIONS = 20

    def __init__(self, engine: AsyncEngine) -> None:
        _, self.connect_args = engine.dialect.create_connect_args(engine.url)
        self.pool: asyncpg.Pool | None = None
        self.opening = asyncio.Lock()

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def _pool(self) -> asyncpg.Pool:
        async with self.opening:
            if self.pool is None:
                self.pool = await asyncpg.create_pool(
                    min_size=1, max_size=self.MAX_CONNECTIONS, reset=_keep, **self.connect_args
                )
        return self.pool

    async def append(
        self,
        session_id: str,
        tenant_id: str,
        bot: str,
        messages: list[dict[str, Any]],
        seq: int | None,
    ) -> list[Message]:
        try:
            async with (self.pool or await self._pool()).acquire() as connection:
                if seq is None:  # two statements: the unique number still refuses a race
                    last = await connection.fetchval(
                        f"SELECT max(seq) FROM {MessageRow.__tablename__} WHERE session_id = $1",
                        session_id,
                    )
                    seq = (last or 0) + 1
                rows = _rows(session_id, tenant_id, bot, messages, seq)
                await connection.executemany(_INSERT, [_values(r) for r in rows])
        except asyncpg.UniqueViolationError:
            raise ConflictError("another message of this session is being answered") from None
        except asyncpg.InterfaceError as exc:  # closed under us: the server went away
            raise UnavailableError("the database is unavailable") from exc
        return _written(rows)


async def _keep(_connection: asyncpg.Connection) -> None:
    """No reset when a connection goes back to the pool (see ``_PostgresMessages``)."""


def _values(row: dict[str, Any]) -> list[Any]:
    """A row's values as asyncpg sends them, text spelled as the columns' types spell it."""
    return [_value(row[c], c in _JSON_COLUMNS) for c in _COLUMNS]


def _value(value: Any, is_json: bool) -> Any:
    if value is None:
        return None
    if is_json:
        return text_codec.json_dumps(value)
    return text_codec.to_stored(value) if isinstance(value, str) else value


class MessageRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def history(self, session_id: str) -> list[MessageRow]:
        stmt = (
            select(MessageRow).where(MessageRow.session_id == session_id).order_by(MessageRow.seq)
        )
        return list(await self.session.scalars(stmt))

    async def page(self, session_id: str, after_seq: int | None, limit: int) -> list[MessageRow]:
        """Up to ``limit`` messages after ``after_seq``, in order (the session's index)."""
        stmt = select(MessageRow).where(MessageRow.session_id == session_id)
        if after_seq is not None:
            stmt = stmt.where(MessageRow.seq > after_seq)
        return list(await self.session.scalars(stmt.order_by(MessageRow.seq).limit(limit)))

    async def tokens_by_day(
        self, tenant_id: str, since: datetime, until: datetime
    ) -> dict[str, tuple[int, int]]:
        """Per UTC day (``YYYY-MM-DD``) in the range: the input and output tokens of the
        tenant's model calls."""
        stamp = MessageRow.created_at
        day = (
            func.to_char(func.timezone("UTC", stamp), "YYYY-MM-DD")
            if dialect_name(self.session) == "postgresql"
            else func.substr(stamp, 1, 10)  # stored as ISO text in UTC
        )
        stmt = (
            select(
                day,
                func.coalesce(func.sum(MessageRow.input_tokens), 0),
                func.coalesce(func.sum(MessageRow.output_tokens), 0),
            )
            .where(
                MessageRow.role == "assistant",
                MessageRow.tenant_id == tenant_id,
                stamp >= since,
                stamp < until,
            )
            .group_by(day)
        )
        rows = (await self.session.execute(stmt)).all()
        return {str(d): (int(i), int(o)) for d, i, o in rows}

    async def tokens(
        self,
        tenant_id: str | None,
        since: datetime,
        until: datetime,
        bot: str | None = None,
        session_id: str | None = None,
    ) -> dict[str, int]:
        """Token sums of the model calls in the range (all tenants when ``tenant_id`` is None)."""
        tool = MessageRow.tool_round.is_(True)
        stmt = select(
            func.count(),
            func.coalesce(func.sum(MessageRow.input_tokens), 0),
            func.coalesce(func.sum(MessageRow.output_tokens), 0),
            func.coalesce(func.sum(MessageRow.cached_tokens), 0),
            func.coalesce(func.sum(MessageRow.input_tokens).filter(tool), 0),
            func.coalesce(func.sum(MessageRow.output_tokens).filter(tool), 0),
        ).where(
            MessageRow.role == "assistant",
            MessageRow.created_at >= since,
            MessageRow.created_at < until,
        )
        if tenant_id is not None:
            stmt = stmt.where(MessageRow.tenant_id == tenant_id)
        if bot is not None:
            stmt = stmt.where(MessageRow.bot == bot)
        if session_id is not None:
            stmt = stmt.where(MessageRow.session_id == session_id)
        calls, inp, out, cached, tool_in, tool_out = (await self.session.execute(stmt)).one()
        return {
            "model_calls": int(calls),
            "input": int(inp),
            "output": int(out),
            "cached": int(cached),
            "tool_round_input": int(tool_in),
            "tool_round_output": int(tool_out),
        }

    async def offered_and_called(
        self, tenant_id: str | None, since: datetime, until: datetime, limit: int = 100_000
    ) -> dict[str, tuple[int, int]]:
        """Per tool: how many model calls were offered it, and how many of those called it."""
        stmt = select(MessageRow.offered, MessageRow.tool_calls).where(
            MessageRow.role == "assistant",
            MessageRow.offered.is_not(None),
            MessageRow.created_at >= since,
            MessageRow.created_at < until,
        )
        if tenant_id is not None:
            stmt = stmt.where(MessageRow.tenant_id == tenant_id)
        counts: dict[str, list[int]] = {}
        for offered, calls in (await self.session.execute(stmt.limit(limit))).all():
            called = {c.get("name") for c in calls or ()}
            for name in offered or ():
                entry = counts.setdefault(name, [0, 0])
                entry[0] += 1
                entry[1] += name in called
        return {name: (o, c) for name, (o, c) in counts.items()}


class EvalRunRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, tenant_id: str, bot: str, report: dict[str, Any]) -> EvalRunRow:
        """A run's report, kept (in this unit of work)."""
        run = EvalRunRow(
            id=str(uuid.uuid4()),
            tenant_id=tenant_id,
            bot=bot,
            created_at=utcnow(),
            pass_rate=report["pass_rate"],
            report=report,
        )
        self.session.add(run)
        return run

    async def of_bot(self, tenant_id: str, bot: str) -> list[EvalRunRow]:
        stmt = select(EvalRunRow).where(EvalRunRow.tenant_id == tenant_id, EvalRunRow.bot == bot)
        return list(await self.session.scalars(stmt))
