"""Daily rollups of the call log, so analytics over millions of calls read thousands of rows.

Per (tenant, tool, UTC day): calls, successes and cache hits, and a latency histogram with
logarithmic buckets — bucket ``b`` holds latencies in (GROWTH^(b-1), GROWTH^b] ms, so a
percentile read from it is within ``GROWTH - 1`` (4 %) of the exact value. Rollups are written
in the same transaction as the call rows they count (upserts that add), so they never drift.
Test runs are not counted.
"""

from __future__ import annotations

import functools
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import text
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from server.storage.tables import ToolCallDailyRow, ToolCallLatencyRow

GROWTH = 1.04
_LOG_GROWTH = math.log(GROWTH)
FLOOR_MS = 0.001


def bucket(latency_ms: float) -> int:
    return math.ceil(math.log(max(latency_ms, FLOOR_MS)) / _LOG_GROWTH)


def bucket_value(index: int) -> float:
    """The bucket's upper bound: what a percentile falling in it reports."""
    return round(GROWTH**index, 3)


def bucket_sql(dialect: str) -> str:
    """The same bucket in SQL (PostgreSQL, or SQLite with its math functions)."""
    greatest = "greatest" if dialect == "postgresql" else "max"
    return f"CAST(ceil(ln({greatest}(latency_ms, {FLOOR_MS})) / ln({GROWTH})) AS INTEGER)"


def day_sql(dialect: str) -> str:
    return "CAST((at AT TIME ZONE 'UTC') AS date)" if dialect == "postgresql" else "date(at)"


def summarise(
    rows: Iterable[dict[str, Any]],
) -> tuple[dict[tuple[str, str, date], list[int]], Counter[tuple[str, str, date, int]]]:
    """Call-log rows → additions to the daily counters and to the latency buckets."""
    daily: dict[tuple[str, str, date], list[int]] = {}
    latency: Counter[tuple[str, str, date, int]] = Counter()
    for row in rows:
        if row.get("test"):
            continue
        key = (row["tenant_id"], row["tool"], row["at"].date())
        counts = daily.setdefault(key, [0, 0, 0])
        counts[0] += 1
        counts[1] += bool(row["success"])
        counts[2] += bool(row.get("cached"))
        latency[(*key, bucket(row["latency_ms"]))] += 1
    return daily, latency


def _parameters(
    rows: Iterable[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The two upserts' parameter sets for ``rows`` (none when no row counts)."""
    daily, latency = summarise(rows)
    return [
        {"tenant_id": t, "tool": tool, "day": day, "calls": c, "successes": s, "cached": h}
        for (t, tool, day), (c, s, h) in sorted(daily.items())
    ], [
        {"tenant_id": t, "tool": tool, "day": day, "bucket": b, "calls": n}
        for (t, tool, day, b), n in sorted(latency.items())
    ]


async def add(session: Any, rows: Iterable[dict[str, Any]]) -> None:
    """Add call-log rows to the rollups inside the caller's transaction (``session``: an ORM
    session or a connection): two upserts, each run as one executemany."""
    daily, latency = _parameters(rows)
    if not daily:
        return
    dialect = session.dialect if isinstance(session, AsyncConnection) else session.bind.dialect
    add_daily, add_latency = _upserts(dialect.name)
    await session.execute(add_daily, daily)
    await session.execute(add_latency, latency)


def add_sqlite(connection: sqlite3.Connection, rows: Iterable[dict[str, Any]]) -> None:
    """``add`` on SQLite's own connection, in the caller's transaction (the call log's writer
    runs its whole batch in one hop to the connection's thread): the same two upserts."""
    daily, latency = _parameters(rows)
    if not daily:
        return
    for (sql, order), parameters in zip(_sqlite_upserts(), (daily, latency), strict=True):
        connection.executemany(
            sql, [tuple(_sqlite_value(p[name]) for name in order) for p in parameters]
        )


def _sqlite_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value  # as SQLAlchemy's Date binds


@functools.cache
def _sqlite_upserts() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The upserts compiled for SQLite once: their text and their parameters' order."""
    compiled = [u.compile(dialect=sqlite.dialect()) for u in _upserts("sqlite")]
    return tuple((str(c), tuple(c.positiontup or ())) for c in compiled)


@functools.cache
def _upserts(dialect: str) -> tuple[Any, Any]:
    """The two upserts that add to the rollups, built once per dialect (their compiled form is
    then cached too; a multi-row VALUES of each batch's length was compiled anew every time)."""
    insert_ = pg_insert if dialect == "postgresql" else sqlite_insert
    d: Any = ToolCallDailyRow.__table__
    daily = insert_(d)
    daily = daily.on_conflict_do_update(
        index_elements=["tenant_id", "tool", "day"],
        set_={
            "calls": d.c.calls + daily.excluded.calls,
            "successes": d.c.successes + daily.excluded.successes,
            "cached": d.c.cached + daily.excluded.cached,
        },
    )
    h: Any = ToolCallLatencyRow.__table__
    latency = insert_(h)
    latency = latency.on_conflict_do_update(
        index_elements=["tenant_id", "tool", "day", "bucket"],
        set_={"calls": h.c.calls + latency.excluded.calls},
    )
    return daily, latency


def rebuild_sql(dialect: str) -> list[str]:
    """Statements that recompute every rollup from ``tool_calls`` (migration backfill, tools
    that load the call log in bulk)."""
    day, bucket_ = day_sql(dialect), bucket_sql(dialect)
    ok = "CASE WHEN success THEN 1 ELSE 0 END"
    hit = "CASE WHEN cached THEN 1 ELSE 0 END"
    return [
        "DELETE FROM tool_call_daily",
        "DELETE FROM tool_call_latency",
        f"""INSERT INTO tool_call_daily (tenant_id, tool, day, calls, successes, cached)
            SELECT tenant_id, tool, {day}, count(*), sum({ok}), sum({hit})
            FROM tool_calls WHERE NOT test GROUP BY tenant_id, tool, {day}""",
        f"""INSERT INTO tool_call_latency (tenant_id, tool, day, bucket, calls)
            SELECT tenant_id, tool, {day}, {bucket_}, count(*)
            FROM tool_calls WHERE NOT test GROUP BY tenant_id, tool, {day}, {bucket_}""",
    ]


async def rebuild(conn: Any) -> None:
    for statement in rebuild_sql(conn.dialect.name):
        await conn.execute(text(statement))
