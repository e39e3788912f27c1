"""The call log read side: analytics, a session's calls, usage ranking, breaker openings.

Analytics run in SQL on both databases (docs/analytics.md has the index design): one grouped
scan of the covering index ``ix_tool_calls_analytics`` for counts and exact percentiles
(nearest rank: ``percentile_disc`` on PostgreSQL, the same rank picked with window functions
on SQLite), then the last errors per tool from the partial index of failures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Integer, and_, case, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.tables import BreakerOpeningRow, ToolCallRow, utcnow

LAST_ERRORS = 5


@dataclass
class ToolFigures:
    tool: str
    tenant_id: str
    calls: int
    successes: int
    cache_hits: int
    p50_ms: float | None
    p95_ms: float | None
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
            "cache_hits": self.cache_hits,
            "cache_hit_rate": round(self.cache_hits / self.calls, 4) if self.calls else None,
            "breaker_openings": self.breaker_openings,
            "last_errors": self.last_errors,
        }


def _rank(fraction_percent: int, n: Any) -> Any:
    """Nearest rank, ceil(p·n), in integer arithmetic (SQLite has no ceil by default)."""
    return (fraction_percent * n + 99) / 100


class CallRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    @property
    def _postgres(self) -> bool:
        return self.session.bind.dialect.name == "postgresql"

    def breaker_opened(self, tenant: str, tool: str, scope: str, session_id: str | None) -> None:
        self.session.add(
            BreakerOpeningRow(
                at=utcnow(), tenant_id=tenant, tool=tool, scope=scope, session_id=session_id
            )
        )

    def record(self, **row: Any) -> None:
        """A row written in this unit of work (browser outcomes; server calls are batched)."""
        row.setdefault("at", utcnow())
        self.session.add(ToolCallRow(**row))

    async def find(self, session_id: str, call_id: str) -> ToolCallRow | None:
        return await self.session.scalar(
            select(ToolCallRow).where(
                ToolCallRow.session_id == session_id, ToolCallRow.call_id == call_id
            )
        )

    async def of_session(self, session_id: str, limit: int = 1000) -> list[ToolCallRow]:
        rows = await self.session.scalars(
            select(ToolCallRow)
            .where(ToolCallRow.session_id == session_id)
            .order_by(ToolCallRow.id)
            .limit(limit)
        )
        return list(rows)

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

    async def analytics(
        self, tenant: str | None, since: datetime, until: datetime, tool: str | None = None
    ) -> list[ToolFigures]:
        """Per-tool figures for one tenant (or every tenant: ``None``), most used first."""
        t = ToolCallRow
        where = [t.at >= since, t.at < until, ~t.test]
        if tenant is not None:
            where.append(t.tenant_id == tenant)
        if tool is not None:
            where.append(t.tool == tool)
        ok = func.sum(case((t.success, 1), else_=0))
        hits = func.sum(case((t.cached, 1), else_=0))
        if self._postgres:
            stmt = select(
                t.tenant_id, t.tool, func.count(), ok, hits,
                func.percentile_disc(0.5).within_group(t.latency_ms),
                func.percentile_disc(0.95).within_group(t.latency_ms),
            ).where(*where).group_by(t.tenant_id, t.tool)  # fmt: skip
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
                ).where(*where)  # fmt: skip
            ).subquery()
            r = ranked.c
            stmt = select(
                r.tenant_id, r.tool, func.count(),
                func.sum(case((r.success, 1), else_=0)), func.sum(case((r.cached, 1), else_=0)),
                func.max(case((r.rn == cast(_rank(50, r.n), Integer), r.latency_ms))),
                func.max(case((r.rn == cast(_rank(95, r.n), Integer), r.latency_ms))),
            ).group_by(r.tenant_id, r.tool)  # fmt: skip
        figures = [
            ToolFigures(name, tenant_id, int(calls), int(oks or 0), int(cached or 0), p50, p95)
            for tenant_id, name, calls, oks, cached, p50, p95 in (await self.session.execute(stmt))
        ]
        figures.sort(key=lambda f: (-f.calls, f.tenant_id, f.tool))
        await self._openings(figures, since, until)
        for figure in figures:
            figure.last_errors = await self._last_errors(figure, since, until)
        return figures

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
