"""The SQLite connection under the async engine: DBAPI behaviour SQLAlchemy relies on, one hop
per statement, and statements kept off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, exc, insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from server.storage import sqlite_driver
from server.storage.database import create_engine

metadata = MetaData()
notes = Table(
    "notes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("body", String, nullable=False, unique=True),
)


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'driver.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    yield engine
    await engine.dispose()


async def bodies(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(notes.c.body).order_by(notes.c.id))).scalars())


async def test_rows_counts_ids_and_returning_come_back_as_sqlite_gave_them(engine) -> None:
    async with engine.begin() as conn:
        first = await conn.execute(insert(notes).values(body="a"))
        many = await conn.execute(insert(notes), [{"body": "b"}, {"body": "c"}, {"body": "d"}])
        returned = await conn.execute(insert(notes).values(body="e").returning(notes.c.id))
        updated = await conn.execute(text("UPDATE notes SET body = body || '!' WHERE id > 2"))

    assert first.inserted_primary_key == (1,)
    assert many.rowcount == 3
    assert returned.scalar_one() == 5
    assert updated.rowcount == 3
    assert await bodies(engine) == ["a", "b", "c!", "d!", "e!"]
    async with engine.connect() as conn:
        result = await conn.execute(text("SELECT id, body FROM notes ORDER BY id"))
        assert list(result.keys()) == ["id", "body"]
        assert result.fetchone() == (1, "a")
        assert result.fetchmany(2) == [(2, "b"), (3, "c!")]
        assert result.fetchall() == [(4, "d!"), (5, "e!")]


async def test_what_is_not_committed_is_gone_and_a_savepoint_rolls_back_alone(engine) -> None:
    async with engine.connect() as conn:  # closed without a commit: the pool rolls it back
        await conn.execute(insert(notes).values(body="never"))
    async with engine.begin() as conn:
        await conn.execute(insert(notes).values(body="kept"))
        nested = await conn.begin_nested()
        await conn.execute(insert(notes).values(body="undone"))
        await nested.rollback()
    with pytest.raises(RuntimeError):
        async with engine.begin() as conn:
            await conn.execute(insert(notes).values(body="raised"))
            raise RuntimeError

    assert await bodies(engine) == ["kept"]


async def test_errors_are_sqlalchemys_and_the_connection_serves_on(engine) -> None:
    async with engine.begin() as conn:
        await conn.execute(insert(notes).values(body="one"))
    async with engine.connect() as conn:
        with pytest.raises(exc.IntegrityError):
            await conn.execute(insert(notes).values(body="one"))
        await conn.rollback()
        with pytest.raises(exc.OperationalError, match="no such table"):
            await conn.execute(text("SELECT * FROM nowhere"))
        await conn.rollback()
        await conn.execute(insert(notes).values(body="two"))
        await conn.commit()

    assert await bodies(engine) == ["one", "two"]


@pytest.fixture
async def hops(engine, monkeypatch) -> list[str]:
    """The hops to a connection's thread from here on, by the function each ran."""
    seen: list[str] = []
    execute = sqlite_driver.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        seen.append(getattr(fn, "__name__", repr(fn)))
        return await execute(self, fn, *args, **kwargs)

    await bodies(engine)  # the pool's connection is open before counting
    monkeypatch.setattr(sqlite_driver.Connection, "_execute", counted)
    return seen


async def test_an_insert_and_commit_is_two_hops_and_a_read_one(engine, hops) -> None:
    async with engine.begin() as conn:
        await conn.execute(insert(notes).values(body="x"))
    assert hops == ["_run", "commit"]

    hops.clear()
    assert await bodies(engine) == ["x"]
    assert hops == ["_run"]


async def test_a_write_that_commits_with_its_statement_is_one_hop(engine, hops) -> None:
    def write(conn, body: str) -> None:
        with conn.begin(), sqlite_driver.commits_with(conn):
            conn.execute(insert(notes).values(body=body))

    async with engine.connect() as conn:
        await conn.run_sync(write, "x")
    assert hops == ["_run"]
    assert await bodies(engine) == ["x"]  # committed: another connection's read sees it


async def test_a_failed_write_commits_nothing_and_leaves_no_commit_pending(engine) -> None:
    def taken(conn) -> None:
        with conn.begin():
            conn.execute(insert(notes).values(body="first of the transaction"))
            with sqlite_driver.commits_with(conn):
                conn.execute(insert(notes).values(body="x"))  # taken: fails in the driver

    def unbuildable(conn) -> None:
        with sqlite_driver.commits_with(conn):
            conn.execute(insert(notes).values(nope=1))  # fails before the driver

    def later(conn) -> None:  # a transaction that rolls back: nothing of it may stay
        with conn.begin() as transaction:
            conn.execute(insert(notes).values(body="rolled back"))
            transaction.rollback()

    async with engine.begin() as conn:
        await conn.execute(insert(notes).values(body="x"))
    async with engine.connect() as conn:
        with pytest.raises(exc.IntegrityError):
            await conn.run_sync(taken)
        with pytest.raises(exc.CompileError):
            await conn.run_sync(unbuildable)
        await conn.rollback()
        await conn.run_sync(later)

    assert await bodies(engine) == ["x"]


async def test_a_long_statement_leaves_the_event_loop_free(engine) -> None:
    slow = text(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
        "SELECT count(*) FROM n"
    )

    async def query() -> int:
        async with engine.connect() as conn:
            return (await conn.execute(slow)).scalar_one()

    await bodies(engine)  # the pool's connection is open before the race
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(query())
    turns = 0

    def tick() -> None:  # the loop gets turns while SQLite counts on its own thread
        nonlocal turns
        if not task.done():
            turns += 1
            loop.call_soon(tick)

    loop.call_soon(tick)
    assert await task == 3_000_000
    assert turns > 100
