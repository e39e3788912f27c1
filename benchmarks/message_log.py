"""A turn's one write of its messages, measured alone.

    python -m benchmarks.message_log [--writes 3000] [--database postgresql|sqlite] [--busy-ms 0]

Writes a user's and an assistant's message together, ``--writes`` times, one after another, in
alternating rounds of: the message log as it is; the way it wrote before, as the baseline; and
the floor. On PostgreSQL: one prepared statement on asyncpg's own pool, against a Core insert on
SQLAlchemy's pool in autocommit with its pre-ping, and ``SELECT 1`` on a bare asyncpg connection
(one round trip). On SQLite (a file, WAL): the rows inserted and committed on the event loop's
thread (the log as it is) and in one hop to the thread of the log's own connection (as it wrote
before), against a Core insert and its commit in one hop into SQLAlchemy's synchronous core on a
pooled connection, and ``SELECT 1`` in one hop on a pooled connection and on the log's (the hop
alone). With ``--busy-ms``, this process keeps its CPU busy that long between two writes, as a
node is between a turn's writes (the model's call, the requests): the database's process sleeps
meanwhile, and its wake-up is part of the write's time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
from sqlalchemy import Connection, insert
from sqlalchemy.ext.asyncio import create_async_engine

from benchmarks.databases import fresh_postgres
from server.storage import sqlite_driver
from server.storage.conversations import BLANK_MESSAGE, MessageLog
from server.storage.database import create_engine
from server.storage.tables import Base, MessageRow, SessionRow, TenantRow, utcnow

NAME = "quiver_bench_messages"
ROUNDS = 5


BUSY_S = 0.0  # --busy-ms


async def timed(write: Callable[[], Awaitable[object]], n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await write()
        samples.append(time.perf_counter() - started)
        until = time.perf_counter() + BUSY_S
        while time.perf_counter() < until:  # busy, as a node between two writes (not timed)
            pass
    return samples


TURN = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


async def prepared(
    engine: Any,
) -> tuple[MessageLog, Callable[[], Awaitable[None]], Callable[[], int]]:
    """The schema, a tenant and its session ``s``; the message log, a write of one turn's two
    messages through it, and the next turn's first number (for the other ways' rows)."""
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
        await connection.execute(insert(TenantRow), {"id": "bench", "name": "Bench"})
        await connection.execute(insert(SessionRow), {"id": "s", "tenant_id": "bench", "bot": "b"})
    seq = 0

    def numbered() -> int:
        nonlocal seq
        seq += 2
        return seq - 1

    log = MessageLog(engine)

    async def message_log() -> None:
        await log.append("s", "bench", "b", TURN, numbered())

    return log, message_log, numbered


def core_rows(first: int) -> list[dict[str, Any]]:
    """A turn's two rows as a Core insert takes them (the way the log wrote before)."""
    return [
        {**BLANK_MESSAGE, "id": str(uuid.uuid4()), "session_id": "s", "tenant_id": "bench",
         "bot": "b", "seq": first + i, "created_at": utcnow(), **m}
        for i, m in enumerate(TURN)
    ]  # fmt: skip


async def main(writes: int, database: str) -> None:
    if database == "sqlite":
        await sqlite(writes)
        return
    url = fresh_postgres(NAME)
    engine = create_async_engine(url)
    log, message_log, numbered = await prepared(engine)

    before = create_async_engine(url, isolation_level="AUTOCOMMIT", pool_size=5, pool_pre_ping=True)

    async def sqlalchemy_autocommit() -> None:
        rows = core_rows(numbered())
        async with before.connect() as connection:
            await connection.run_sync(lambda sync: sync.execute(insert(MessageRow), rows))

    bare = await asyncpg.connect(f"postgresql://postgres@127.0.0.1:5432/{NAME}")

    async def round_trip() -> None:
        await bare.fetchval("SELECT 1")

    ways = {
        "the message log (asyncpg pool)": message_log,
        "SQLAlchemy pool, autocommit, pre-ping (baseline)": sqlalchemy_autocommit,
        "SELECT 1 on a bare connection (one round trip)": round_trip,
    }
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for way in ways.values():
        await timed(way, 200)  # warm: connections made, statements prepared
    for _ in range(ROUNDS):
        for name, way in ways.items():
            samples[name] += await timed(way, writes // ROUNDS)
    await log.close()
    await before.dispose()
    await bare.close()
    await engine.dispose()

    report(samples, "SQLAlchemy pool, autocommit, pre-ping (baseline)", writes)


async def sqlite(writes: int) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='quiver-bench-')}/q.db")
    log, message_log, numbered = await prepared(engine)

    def core_insert(sync: Connection, rows: list[dict[str, Any]]) -> None:
        with sync.begin(), sqlite_driver.commits_with(sync):
            sync.execute(insert(MessageRow), rows)

    async def core_in_one_hop() -> None:
        rows = core_rows(numbered())
        async with log.writes, engine.connect() as connection:
            await connection.run_sync(core_insert, rows)

    async def pooled_hop() -> None:
        async with engine.connect() as connection:
            await sqlite_driver.in_one_hop(connection, lambda conn: conn.execute("SELECT 1"))

    by_thread = MessageLog(engine)  # every write by the hop to its connection's thread
    assert by_thread.sqlite is not None
    by_thread.sqlite.inline = None

    async def one_hop() -> None:
        await by_thread.append("s", "bench", "b", TURN, numbered())

    async def own_hop() -> None:
        assert by_thread.sqlite is not None and by_thread.sqlite.connection is not None
        await by_thread.sqlite.connection.in_one_hop(lambda conn: conn.execute("SELECT 1"))

    ways = {
        "the message log (on the event loop's thread)": message_log,
        "one hop to the log's own connection's thread": one_hop,
        "Core insert, one hop into the sync core (baseline)": core_in_one_hop,
        "SELECT 1 in one hop, a pooled connection": pooled_hop,
        "SELECT 1 in one hop, the log's connection": own_hop,
    }
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for way in ways.values():
        await timed(way, 200)
    for _ in range(ROUNDS):
        for name, way in ways.items():
            samples[name] += await timed(way, writes // ROUNDS)
    await log.close()
    await by_thread.close()
    await engine.dispose()
    report(samples, "Core insert, one hop into the sync core (baseline)", writes)


def report(samples: dict[str, list[float]], base: str, writes: int) -> None:
    baseline = statistics.median(samples[base])
    busy = f", {BUSY_S * 1000:g} ms busy between writes" if BUSY_S else ""
    print(f"two messages written together, {writes} writes each, {ROUNDS} alternating rounds{busy}")
    print(f"{'':52}{'p50 ms':>8}{'p99 ms':>8}{'of baseline':>13}")
    for name, xs in samples.items():
        xs.sort()
        p50, p99 = statistics.median(xs), xs[int(0.99 * (len(xs) - 1))]
        print(f"{name:52}{p50 * 1000:8.3f}{p99 * 1000:8.3f}{p50 / baseline:12.0%}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=3000)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--busy-ms", type=float, default=0.0, help="busy between two writes")
    args = parser.parse_args()
    BUSY_S = args.busy_ms / 1000
    asyncio.run(main(args.writes, args.database))
