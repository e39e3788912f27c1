"""The call log read side: analytics, a session's calls, usage ranking, breaker openings.

Analytics run in SQL on both databases (docs/analytics.md has the design): counts from the
daily rollups (``storage.rollups``) plus the raw rows of the range's partial days; percentiles
exact over the raw rows (covering index ``ix_tool_calls_analytics``; ``percentile_disc`` on
PostgreSQL, the same nearest rank with window functions on SQLite) while the range is small
enough, else from the rollups' latency buckets; the last errors per tool from the partial index
of failures.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import math
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import Integer, and_, bindparam, case, cast, func, or_, select, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.inputs import json_text
from server.storage import rollups, text_codec
from server.storage.database import dialect_name
from server.storage.sqlite_driver import in_one_hop
from server.storage.tables import (
    BreakerOpeningRow,
    JSONType,
    ToolCallDailyRow,
    ToolCallLatencyRow,
    ToolCallRow,
    UTCDateTime,
    utcnow,
)

LAST_ERRORS = 5


@dataclass(frozen=True, slots=True)
class CallQuery:
    """What ``GET /v1/calls`` filters by; ``outcome``: success, failure, cached or a code."""

    tool: str | None = None
    session: str | None = None
    outcome: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    before: int | None = None


_TABLE = ToolCallRow.__table__
COLUMNS = tuple(c.name for c in _TABLE.columns if c.name != "id")
_RECORD = ", ".join(  # the columns as PostgreSQL's ``jsonb_to_recordset`` is told them
    f"{c.name} {c.type.compile(dialect=postgresql.dialect())}"  # type: ignore[no-untyped-call]
    for c in _TABLE.columns
    if c.name != "id"
)
_JSON = frozenset(c.name for c in _TABLE.columns if c.type is JSONType)
# PostgreSQL: the batch travels as one JSON document that the database unpacks — one parameter
# and one prepared statement whatever the batch's length, encoded in C. (An executemany of dicts
# through SQLAlchemy spent ~45 µs of the server's CPU per row on bind processing; this, ~10.)
_POSTGRES_INSERT = (
    f"INSERT INTO tool_calls ({', '.join(COLUMNS)}) "
    f"SELECT * FROM jsonb_to_recordset($1::jsonb) AS r({_RECORD}) "
    "ON CONFLICT (uid) DO NOTHING RETURNING uid"
)
MAX_SQLITE_ROWS = 256  # rows of one multi-row INSERT on SQLite (18 parameters each)


@functools.cache
def _sqlite_insert(rows: int) -> str:
    """SQLite: a multi-row VALUES of ``rows`` rows (a power of two: few statements to cache).
    SQLite's own JSON functions would parse the document once per column (measured: twice
    the CPU of binding the values)."""
    values = ", ".join(["(" + ", ".join("?" * len(COLUMNS)) + ")"] * rows)
    return (
        f"INSERT INTO tool_calls ({', '.join(COLUMNS)}) VALUES {values} "
        "ON CONFLICT (uid) DO NOTHING RETURNING uid"
    )


def _values(row: dict[str, Any], sqlite: bool) -> dict[str, Any]:
    """A row as the raw inserts write it, its text spelled as the columns' types spell it (the
    inserts bypass them)."""
    values = {name: _spelled(row.get(name)) for name in COLUMNS}
    values["test"], values["cached"] = bool(row.get("test")), bool(row.get("cached"))
    if sqlite:  # ``at`` as the text SQLAlchemy writes (its queries compare that text), UTC
        at = row["at"].astimezone(UTC).replace(tzinfo=None)
        values["at"] = at.isoformat(" ", "microseconds")
        for name in _JSON:
            if values[name] is not None:
                values[name] = json_text(values[name])
    return values


def _spelled(value: Any) -> Any:
    if isinstance(value, str):
        return text_codec.to_stored(value)
    return text_codec.stored(value) if isinstance(value, dict | list) else value


class CallRows:
    """The call log's writer (``server.calls.calllog.CallLog``): a batch of rows and their
    rollups in one transaction; a row already written (same ``uid``) is skipped."""

    def __init__(self, sessions: async_sessionmaker[Any]) -> None:
        self.sessions = sessions

    async def __call__(self, rows: list[dict[str, Any]]) -> None:
        async with self.sessions() as session, session.begin():
            connection = await session.connection()
            if connection.dialect.name == "postgresql":
                document = json_text([_values(row, sqlite=False) for row in rows])
                result = await connection.exec_driver_sql(_POSTGRES_INSERT, (document,))
                new = {uid for (uid,) in result.fetchall()}
                await rollups.add(connection, [r for r in rows if r["uid"] in new])
            else:  # the whole batch in one hop to the connection's thread
                await in_one_hop(connection, _write_sqlite, rows)


def _write_sqlite(connection: sqlite3.Connection, rows: list[dict[str, Any]]) -> None:
    """On SQLite's own connection, on its thread: the rows and their rollups, committed. (Step
    by step through SQLAlchemy, each statement was a hop to this thread and back; measured
    over real HTTP, the one hop serves 1.4–1.6 % more calls a second.)"""
    with connection:  # sqlite3's transaction: committed, or rolled back and the error raised
        new: set[str] = set()
        left = [tuple(_values(row, sqlite=True).values()) for row in rows]
        while left:
            size = min(MAX_SQLITE_ROWS, 1 << (len(left).bit_length() - 1))
            chunk, left = left[:size], left[size:]
            flat = tuple(itertools.chain.from_iterable(chunk))  # not a generator: C, GIL-light
            new.update(uid for (uid,) in connection.execute(_sqlite_insert(size), flat))
        rollups.add_sqlite(connection, [r for r in rows if r["uid"] in new])


EXACT_LIMIT = 20_000  # calls in range up to which percentiles are computed exactly


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def percentiles(histogram: Counter[int], calls: int) -> tuple[float | None, float | None]:
    """p50 and p95 by nearest rank over latency buckets: each the bucket's upper bound."""
    if not calls:
        return None, None
    wanted = [(p, max(1, math.ceil(p * calls))) for p in (0.5, 0.95)]
    found: dict[float, float] = {}
    seen = 0
    for index in sorted(histogram):
        seen += histogram[index]
        for p, rank in wanted:
            if p not in found and seen >= rank:
                found[p] = rollups.bucket_value(index)
    return found.get(0.5), found.get(0.95)


@dataclass
class ToolFigures:
    tool: str
    tenant_id: str
    calls: int
    successes: int
    cache_hits: int
    p50_ms: float | None
    p95_ms: float | None
    exact: bool = True  # False: percentiles from the latency buckets (within 4 %)
    breaker_openings: int = 0
    last_errors: list[dict[str, Any]] = field(default_factory=list)

    def public(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "tenant": self.tenant_id,
            "calls": self.calls,
            "successes": self.successes,
            "success_rate": round(self.successes / self.calls, 4) if self.calls else None,
            "p50_ms": self.p50_ms,
            "p95_ms": self.p95_ms,
            "percentiles": "exact" if self.exact else "within 4%",
            "cache_hits": self.cache_hits,
            "cache_hit_rate": round(self.cache_hits / self.calls, 4) if self.calls else None,
            "breaker_openings": self.breaker_openings,
            "last_errors": self.last_errors,
        }


def _rank(fraction_percent: int, n: Any) -> Any:
    """Nearest rank, ceil(p·n), in integer arithmetic (SQLite has no ceil by default)."""
    return (fraction_percent * n + 99) / 100


class CallRepository:
    def __init__(
        self, session: AsyncSession, parallel: async_sessionmaker[AsyncSession] | None = None
    ) -> None:
        self.session = session
        # PostgreSQL: a session factory for reads that may run side by side on other connections
        self.parallel = parallel if dialect_name(session) == "postgresql" else None

    @property
    def _postgres(self) -> bool:
        return dialect_name(self.session) == "postgresql"

    def breaker_opened(self, tenant: str, tool: str, scope: str, session_id: str | None) -> None:
        self.session.add(
            BreakerOpeningRow(
                at=utcnow(), tenant_id=tenant, tool=tool, scope=scope, session_id=session_id
            )
        )

    async def record(self, **row: Any) -> None:
        """A row written in this unit of work (browser outcomes; server calls are batched)."""
        row.setdefault("at", utcnow())
        self.session.add(ToolCallRow(**row))
        await rollups.add(self.session, [row])

    async def reported(self, session_id: str, call_id: str) -> bool:
        """Whether the session's call ``call_id`` is in the log (a browser outcome, reported)."""
        return await self.find(session_id, call_id) is not None

    async def find(self, session_id: str, call_id: str) -> ToolCallRow | None:
        return await self.session.scalar(
            select(ToolCallRow).where(
                ToolCallRow.session_id == session_id, ToolCallRow.call_id == call_id
            )
        )

    async def of_session(
        self, session_id: str, limit: int = 100, after: tuple[datetime, int] | None = None
    ) -> list[ToolCallRow]:
        """One page of a session's calls, oldest first, after the ``(at, id)`` of the last
        row of the previous page."""
        stmt = select(ToolCallRow).where(ToolCallRow.session_id == session_id)
        if after is not None:
            at, row_id = after
            stmt = stmt.where(
                or_(ToolCallRow.at > at, and_(ToolCallRow.at == at, ToolCallRow.id > row_id))
            )
        rows = await self.session.scalars(
            stmt.order_by(ToolCallRow.at, ToolCallRow.id).limit(  # rows reach the table in batches
                limit
            )
        )
        return list(rows)

    async def browse(self, tenant: str, query: CallQuery, limit: int) -> list[ToolCallRow]:
        """One page of the tenant's calls, newest first, matching ``query`` (``before``: the
        id of the previous page's last row)."""
        stmt = select(ToolCallRow).where(ToolCallRow.tenant_id == tenant)
        if query.tool is not None:
            stmt = stmt.where(ToolCallRow.tool == query.tool)
        if query.session is not None:
            stmt = stmt.where(ToolCallRow.session_id == query.session)
        if query.outcome == "success":
            stmt = stmt.where(ToolCallRow.success)
        elif query.outcome == "failure":
            stmt = stmt.where(~ToolCallRow.success)
        elif query.outcome == "cached":
            stmt = stmt.where(ToolCallRow.cached)
        elif query.outcome is not None:  # a failure code
            stmt = stmt.where(ToolCallRow.error_code == query.outcome)
        if query.since is not None:
            stmt = stmt.where(ToolCallRow.at >= query.since)
        if query.until is not None:
            stmt = stmt.where(ToolCallRow.at < query.until)
        if query.before is not None:
            stmt = stmt.where(ToolCallRow.id < query.before)
        rows = await self.session.scalars(stmt.order_by(ToolCallRow.id.desc()).limit(limit))
        return list(rows)

    async def newest_id(self, tenant: str) -> int:
        found = await self.session.scalar(
            select(func.max(ToolCallRow.id)).where(ToolCallRow.tenant_id == tenant)
        )
        return int(found or 0)

    async def since_id(
        self, tenant: str, after: int, tool: str | None, limit: int
    ) -> list[ToolCallRow]:
        """The tenant's calls with an id above ``after``, oldest first (the live tail)."""
        stmt = select(ToolCallRow).where(ToolCallRow.tenant_id == tenant, ToolCallRow.id > after)
        if tool is not None:
            stmt = stmt.where(ToolCallRow.tool == tool)
        return list(await self.session.scalars(stmt.order_by(ToolCallRow.id).limit(limit)))

    async def most_used(self, tenant: str, since_s: float, limit: int = 200) -> list[str]:
        since = utcnow() - timedelta(seconds=since_s)
        calls = func.count().label("calls")
        rows = await self.session.execute(
            select(ToolCallRow.tool, calls)
            .where(ToolCallRow.tenant_id == tenant, ToolCallRow.at >= since, ~ToolCallRow.test)
            .group_by(ToolCallRow.tool)
            .order_by(calls.desc(), ToolCallRow.tool)
            .limit(limit)
        )
        return [tool for tool, _ in rows.all()]

    async def calls_by_day(
        self, tenant: str, first: date, last: date
    ) -> dict[date, tuple[int, int]]:
        """Per UTC day from ``first`` to ``last`` (both in): the tenant's calls and successes,
        from the daily rollups (test runs are not in them)."""
        stmt = (
            select(
                ToolCallDailyRow.day,
                func.sum(ToolCallDailyRow.calls),
                func.sum(ToolCallDailyRow.successes),
            )
            .where(
                ToolCallDailyRow.tenant_id == tenant,
                ToolCallDailyRow.day >= first,
                ToolCallDailyRow.day <= last,
            )
            .group_by(ToolCallDailyRow.day)
        )
        rows = (await self.session.execute(stmt)).all()
        return {day: (int(calls or 0), int(ok or 0)) for day, calls, ok in rows}

    async def analytics(
        self, tenant: str | None, since: datetime, until: datetime, tool: str | None = None
    ) -> list[ToolFigures]:
        """Per-tool figures for one tenant (or every tenant: ``None``), most used first.

        Counts always come from the daily rollups plus the raw rows of the partial days at the
        range's ends. Percentiles are exact (nearest rank over the raw rows) while the range
        holds at most ``EXACT_LIMIT`` calls, else read from the rollups' latency buckets
        (within 4 %); ``ToolFigures.exact`` says which."""
        figures, histograms = await self._from_rollups(tenant, since, until, tool)
        if sum(f.calls for f in figures) <= EXACT_LIMIT:
            figures = await self._exact(tenant, since, until, tool)
        else:
            for figure in figures:
                figure.exact = False
                figure.p50_ms, figure.p95_ms = percentiles(
                    histograms[(figure.tenant_id, figure.tool)], figure.calls
                )
        figures.sort(key=lambda f: (-f.calls, f.tenant_id, f.tool))
        await self._openings(figures, since, until)
        for figure in figures:
            figure.last_errors = await self._last_errors(figure, since, until)
        return figures

    async def _from_rollups(
        self, tenant: str | None, since: datetime, until: datetime, tool: str | None
    ) -> tuple[list[ToolFigures], dict[tuple[str, str], Counter[int]]]:
        first_full = since.date() if since.time() == time.min else since.date() + timedelta(days=1)
        last_full = until.date()  # days in [first_full, last_full) lie wholly in the range
        parts: list[Callable[[AsyncSession], Awaitable[list[Part]]]] = []
        if first_full < last_full:
            parts += [
                functools.partial(_daily, tenant, tool, first_full, last_full),
                functools.partial(_latency, tenant, tool, first_full, last_full),
            ]
            edges = [(since, _midnight(first_full)), (_midnight(last_full), until)]
        else:
            edges = [(since, until)]
        parts += [
            functools.partial(_raw_edge, tenant, tool, start, end)
            for start, end in edges
            if start < end
        ]
        if self.parallel is not None and len(parts) > 1:
            # Separate connections, so PostgreSQL works on the parts at once.
            parallel = self.parallel

            async def run(part: Callable[[AsyncSession], Awaitable[list[Part]]]) -> list[Part]:
                async with parallel() as session:
                    return await part(session)

            results = await asyncio.gather(*(run(p) for p in parts))
        else:
            results = [await part(self.session) for part in parts]
        totals: dict[tuple[str, str], list[int]] = {}
        histograms: dict[tuple[str, str], Counter[int]] = {}
        for rows in results:
            for key, calls, oks, hits, index, in_bucket in rows:
                if calls is not None:
                    counts = totals.setdefault(key, [0, 0, 0])
                    counts[0] += int(calls)
                    counts[1] += int(oks or 0)
                    counts[2] += int(hits or 0)
                if index is not None:
                    histograms.setdefault(key, Counter())[index] += int(in_bucket or 0)
        figures = [
            ToolFigures(name, tenant_id, calls, oks, hits, None, None)
            for (tenant_id, name), (calls, oks, hits) in totals.items()
        ]
        return figures, histograms

    async def _exact(
        self, tenant: str | None, since: datetime, until: datetime, tool: str | None
    ) -> list[ToolFigures]:
        """Every figure from the raw rows: ``percentile_disc`` on PostgreSQL, the same nearest
        rank picked with window functions on SQLite."""
        t = ToolCallRow
        where = [t.at >= since, t.at < until, ~t.test]
        if tenant is not None:
            where.append(t.tenant_id == tenant)
        if tool is not None:
            where.append(t.tool == tool)
        ok = func.sum(case((t.success, 1), else_=0))
        hits = func.sum(case((t.cached, 1), else_=0))
        if self._postgres:
            stmt = (
                select(
                    t.tenant_id,
                    t.tool,
                    func.count(),
                    ok,
                    hits,
                    func.percentile_disc(0.5).within_group(t.latency_ms),
                    func.percentile_disc(0.95).within_group(t.latency_ms),
                )
                .where(*where)
                .group_by(t.tenant_id, t.tool)
            )
        else:
            part = (t.tenant_id, t.tool)
            ranked = (
                select(
                    t.tenant_id,
                    t.tool,
                    t.success,
                    t.cached,
                    t.latency_ms,
                    func.row_number().over(partition_by=part, order_by=t.latency_ms).label("rn"),
                    func.count().over(partition_by=part).label("n"),
                ).where(*where)
            ).subquery()
            r = ranked.c
            stmt = select(
                r.tenant_id,
                r.tool,
                func.count(),
                func.sum(case((r.success, 1), else_=0)),
                func.sum(case((r.cached, 1), else_=0)),
                func.max(case((r.rn == cast(_rank(50, r.n), Integer), r.latency_ms))),
                func.max(case((r.rn == cast(_rank(95, r.n), Integer), r.latency_ms))),
            ).group_by(r.tenant_id, r.tool)
        return [
            ToolFigures(name, tenant_id, int(calls), int(oks or 0), int(cached or 0), p50, p95)
            for tenant_id, name, calls, oks, cached, p50, p95 in (await self.session.execute(stmt))
        ]

    async def _openings(self, figures: list[ToolFigures], since: datetime, until: datetime) -> None:
        if not figures:
            return
        b = BreakerOpeningRow
        tenants = sorted({f.tenant_id for f in figures})
        rows = await self.session.execute(
            select(b.tenant_id, b.tool, func.count())
            .where(b.tenant_id.in_(tenants), b.at >= since, b.at < until)
            .group_by(b.tenant_id, b.tool)
        )
        counts = {(tenant, tool): n for tenant, tool, n in rows.all()}
        for figure in figures:
            figure.breaker_openings = counts.get((figure.tenant_id, figure.tool), 0)

    async def _last_errors(
        self, figure: ToolFigures, since: datetime, until: datetime
    ) -> list[dict[str, Any]]:
        if figure.successes == figure.calls:
            return []
        t = ToolCallRow
        rows = await self.session.execute(
            select(t.at, t.error_code, t.error_message)
            .where(
                and_(
                    t.tenant_id == figure.tenant_id,
                    t.tool == figure.tool,
                    ~t.success,
                    t.at >= since,
                    t.at < until,
                    ~t.test,
                )
            )
            .order_by(t.at.desc())
            .limit(LAST_ERRORS)
        )
        return [
            {"at": at.isoformat(), "code": code, "message": (message or "")[:300]}
            for at, code, message in rows.all()
        ]


# The parts of a rollup read. Each returns rows of
# ((tenant, tool), calls, successes, cache hits, latency bucket, calls in that bucket),
# with None where a part does not know a value.
Part = tuple[tuple[str, str], int | None, int | None, int | None, int | None, int | None]


async def _daily(
    tenant: str | None, tool: str | None, first: date, last: date, session: AsyncSession
) -> list[Part]:
    d = ToolCallDailyRow
    where = [d.day >= first, d.day < last]
    where += [d.tenant_id == tenant] if tenant is not None else []
    where += [d.tool == tool] if tool is not None else []
    rows = await session.execute(
        select(d.tenant_id, d.tool, func.sum(d.calls), func.sum(d.successes), func.sum(d.cached))
        .where(*where)
        .group_by(d.tenant_id, d.tool)
    )
    return [((t, n), calls, oks, hits, None, None) for t, n, calls, oks, hits in rows.all()]


async def _latency(
    tenant: str | None, tool: str | None, first: date, last: date, session: AsyncSession
) -> list[Part]:
    h = ToolCallLatencyRow
    where = [h.day >= first, h.day < last]
    where += [h.tenant_id == tenant] if tenant is not None else []
    where += [h.tool == tool] if tool is not None else []
    rows = await session.execute(
        select(h.tenant_id, h.tool, h.bucket, func.sum(h.calls))
        .where(*where)
        .group_by(h.tenant_id, h.tool, h.bucket)
    )
    return [((t, n), None, None, None, b, calls) for t, n, b, calls in rows.all()]


async def _raw_edge(
    tenant: str | None, tool: str | None, start: datetime, end: datetime, session: AsyncSession
) -> list[Part]:
    """A partial day at an end of the range, from the raw rows (index-only scan)."""
    dialect = dialect_name(session)
    scope = " AND tenant_id = :tenant" if tenant is not None else ""
    scope += " AND tool = :tool" if tool is not None else ""
    rows = await session.execute(
        text(
            f"SELECT tenant_id, tool, {rollups.bucket_sql(dialect)} AS b, count(*),"
            " sum(CASE WHEN success THEN 1 ELSE 0 END),"
            " sum(CASE WHEN cached THEN 1 ELSE 0 END)"
            f" FROM tool_calls WHERE at >= :since AND at < :until AND NOT test{scope}"
            " GROUP BY tenant_id, tool, b"
        ).bindparams(
            bindparam("since", type_=UTCDateTime()), bindparam("until", type_=UTCDateTime())
        ),
        {"since": start, "until": end, "tenant": tenant, "tool": tool},
    )
    return [((t, n), calls, oks, hits, b, calls) for t, n, b, calls, oks, hits in rows.all()]
