"""A turn's messages, written by the message log past SQLAlchemy's ORM, are stored as the ORM
stores them, on both databases; a write whose number is taken stores none of its rows. On
SQLite a write made on the event loop's thread never waits there for a lock, and the
write-ahead log stays bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from server.errors import ConflictError
from server.storage import sqlite_driver
from server.storage.conversations import BLANK_MESSAGE, MessageLog, _SqliteMessages
from server.storage.database import create_engine, session_factory
from server.storage.tables import MessageRow, SessionRow, TenantRow

pytestmark = pytest.mark.asyncio

MESSAGES = [  # every kind of value a message holds
    {"role": "user", "content": "café ☕ with a NUL \x00 and 'quotes'"},
    {
        "role": "assistant", "content": None, "model": "m",
        "tool_calls": [{"id": "c1", "name": "lookup", "arguments": {"q": "é", "n": 2**53}}],
        "input_tokens": 12, "output_tokens": 3, "cached_tokens": 1, "tool_round": True,
        "offered": ["lookup", "other"], "turn": "t-1",
    },
    {"role": "tool", "content": '{"ok":true}', "tool_call_id": "c1", "name": "lookup"},
]  # fmt: skip
COLUMNS = [c.name for c in MessageRow.__table__.columns]


async def _stored(engine: Any, session_id: str) -> list[dict[str, Any]]:
    async with engine.connect() as connection:
        raw = await connection.exec_driver_sql(
            f"SELECT {', '.join(COLUMNS)} FROM messages WHERE session_id = '{session_id}' "
            "ORDER BY seq"
        )
        rows = [dict(zip(COLUMNS, r, strict=True)) for r in raw.fetchall()]
    for row in rows:
        for column in ("tool_calls", "offered"):  # SQLite's JSON is text; PostgreSQL's, parsed
            if isinstance(row[column], str):
                row[column] = json.loads(row[column])
        row.pop("id"), row.pop("session_id")
    return rows


async def _sessions(engine: Any) -> None:
    async with session_factory(engine)() as session, session.begin():
        session.add(TenantRow(id="acme", name="Acme"))
        await session.flush()
        session.add_all(SessionRow(id=s, tenant_id="acme", bot="b") for s in ("orm", "log"))


async def test_messages_are_stored_as_the_orm_stores_them(database_url) -> None:
    engine = create_engine(database_url)
    at = datetime(2026, 12, 7, 9, 30, 0, 123456, tzinfo=UTC)
    try:
        await _sessions(engine)
        async with session_factory(engine)() as session, session.begin():
            session.add_all(
                MessageRow(
                    **{**BLANK_MESSAGE, **m}, id=f"orm-{i}", session_id="orm", tenant_id="acme",
                    bot="b", seq=i + 1, created_at=at,
                )
                for i, m in enumerate(MESSAGES)
            )  # fmt: skip
        log = MessageLog(engine)
        written = await log.append("log", "acme", "b", MESSAGES)
        orm, new = await _stored(engine, "orm"), await _stored(engine, "log")
        await log.close()
    finally:
        await engine.dispose()
    orm_at, new_at = [r.pop("created_at") for r in orm], [r.pop("created_at") for r in new]

    assert [m.seq for m in written] == [1, 2, 3]
    assert new == orm  # the stored values themselves, text spelled as the ORM spells it
    # another instant, stored the same way (SQLite's queries compare the text)
    assert {type(a) for a in new_at} == {type(a) for a in orm_at}
    assert [_shape(a) for a in new_at] == [_shape(a) for a in orm_at]


def _shape(at: Any) -> str:
    """What a stored instant looks like, digits aside: ``dddd-dd-dd dd:dd:dd.dddddd``."""
    return "".join("d" if ch.isdigit() else ch for ch in str(at))


async def test_a_write_whose_number_is_taken_stores_none_of_its_rows(database_url) -> None:
    engine = create_engine(database_url)
    try:
        await _sessions(engine)
        log = MessageLog(engine)
        await log.append("log", "acme", "b", MESSAGES[:2], 1)
        with pytest.raises(ConflictError):  # rows 0 and 1: the second's number is taken
            await log.append("log", "acme", "b", [{"role": "user", "content": "lost"}] * 2, 0)
        after = await log.append("log", "acme", "b", [{"role": "user", "content": "next"}])
        stored = await _stored(engine, "log")
        await log.close()
    finally:
        await engine.dispose()

    assert [m.seq for m in after] == [3]
    assert [(r["seq"], r["role"]) for r in stored] == [(1, "user"), (2, "assistant"), (3, "user")]
    assert stored[2]["content"] == "next"  # and nothing of the write that clashed


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_a_write_that_finds_the_database_busy_waits_on_the_logs_thread(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write is made on the event loop's thread only when SQLite takes it at once: while
    another connection holds the database, it goes to the log's thread and waits there (the
    loop goes on), and is stored once the other writer is done."""
    engine = create_engine(database_url)
    hopped = asyncio.Event()
    hop = sqlite_driver.Connection.in_one_hop

    async def seen(self: sqlite_driver.Connection, work: Any, *args: Any) -> Any:
        hopped.set()
        return await hop(self, work, *args)

    monkeypatch.setattr(sqlite_driver.Connection, "in_one_hop", seen)
    other = sqlite3.connect(make_url(database_url).database, isolation_level=None)
    try:
        await _sessions(engine)
        log = MessageLog(engine)
        await log.append("log", "acme", "b", MESSAGES[:1])  # on the loop's thread
        assert not hopped.is_set()
        other.execute("BEGIN IMMEDIATE")  # another writer holds the database
        waiting = asyncio.ensure_future(log.append("log", "acme", "b", MESSAGES[1:]))
        await asyncio.wait_for(hopped.wait(), 10)  # on the log's thread, the loop running
        assert not waiting.done()
        other.execute("COMMIT")
        written = await asyncio.wait_for(waiting, 10)
        stored = await _stored(engine, "log")
        await log.close()
    finally:
        other.close()
        await engine.dispose()

    assert [m.seq for m in written] == [2, 3]
    assert [r["role"] for r in stored] == ["user", "assistant", "tool"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_a_long_message_is_written_on_the_logs_thread(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = create_engine(database_url)
    hops: list[str] = []
    hop = sqlite_driver.Connection.in_one_hop

    async def seen(self: sqlite_driver.Connection, work: Any, *args: Any) -> Any:
        hops.append(work.__name__)
        return await hop(self, work, *args)

    monkeypatch.setattr(sqlite_driver.Connection, "in_one_hop", seen)
    long = "x" * (_SqliteMessages.INLINE_BYTES + 1)
    try:
        await _sessions(engine)
        log = MessageLog(engine)
        await log.append("log", "acme", "b", [{"role": "user", "content": "short"}])
        short_hops = list(hops)
        await log.append("log", "acme", "b", [{"role": "tool", "content": long}])
        stored = await _stored(engine, "log")
        await log.close()
    finally:
        await engine.dispose()

    assert short_hops == []  # on the loop's thread
    assert hops == ["_sqlite_pragmas", "write"]  # the thread's connection set up, then used
    assert stored[1]["content"] == long


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_sqlite_the_write_ahead_log_stays_bounded_when_only_the_message_log_writes(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's connection never checkpoints (its syncs would hold the loop); one write in
    ``CHECKPOINT_EVERY`` goes by the log's thread, whose connection does."""

    async def wal_after(writes: int) -> int:
        engine = create_engine(database_url)
        try:
            log = MessageLog(engine)
            for i in range(writes):
                await log.append("log", "acme", "b", TURN, 2 * i + 1)
            size = _wal_size(database_url)
            await log.close()
        finally:
            await engine.dispose()
        return size

    engine = create_engine(database_url)
    try:
        await _sessions(engine)
    finally:
        await engine.dispose()  # its connection's thread ends with it, on this event loop
    bounded = await wal_after(1500)
    monkeypatch.setattr(_SqliteMessages, "CHECKPOINT_EVERY", 10**9)  # never by the thread
    await _clear(database_url)
    unbounded = await wal_after(1500)

    assert bounded < 12 << 20 < unbounded


TURN = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


def _wal_size(database_url: str) -> int:
    return Path(f"{make_url(database_url).database}-wal").stat().st_size


async def _clear(database_url: str) -> None:
    """The messages gone, and the write-ahead log checkpointed and cut to nothing."""
    with contextlib.closing(sqlite3.connect(make_url(database_url).database)) as connection:
        connection.execute("DELETE FROM messages")
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
