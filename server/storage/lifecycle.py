"""A session's lifecycle in storage: ending it (by an agent, or idle — exactly once across nodes,
as the end is a conditional update), handing it to a person and back, listing sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import ConflictError, NotFoundError
from server.storage.tables import BotRow, MessageRow, SessionEndHookRow, SessionRow, ToolCallRow

STATUSES = ("active", "handed_off", "ended")


class Changes(Protocol):
    async def changed(self, session_id: str, *, snapshot: bool = True) -> None: ...


class Lifecycle:
    def __init__(self, session: AsyncSession, sessions: Changes) -> None:
        self.session = session
        self.sessions = sessions  # says which sessions this unit of work changed

    async def _row(self, tenant_id: str, sid: str) -> SessionRow:
        row = await self.session.get(SessionRow, sid)
        if row is None or row.tenant_id != tenant_id:
            raise NotFoundError(f"session {sid!r} not found")
        return row

    async def end(self, tenant_id: str, sid: str, reason: str, now: datetime) -> SessionRow:
        row = await self._row(tenant_id, sid)
        ended = await self._end_if(sid, reason, now, SessionRow.status != "ended")
        if not ended:
            raise ConflictError(f"session {sid!r} has already ended")
        await self.session.refresh(row)
        return row

    async def _end_if(self, sid: str, reason: str, now: datetime, *conditions: Any) -> bool:
        result = await self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == sid, *conditions)
            .values(status="ended", ended_at=now, end_reason=reason[:200])
        )
        ended: bool = result.rowcount == 1  # type: ignore[attr-defined]
        if ended:
            await self.sessions.changed(sid)
        return ended

    async def hand_off(self, tenant_id: str, sid: str, now: datetime) -> bool:
        """Active → handed off; False when it was not active."""
        result = await self.session.execute(
            update(SessionRow)
            .where(
                SessionRow.id == sid,
                SessionRow.tenant_id == tenant_id,
                SessionRow.status == "active",
            )
            .values(status="handed_off", handed_off_at=now)
        )
        handed: bool = result.rowcount == 1  # type: ignore[attr-defined]
        if handed:
            await self.sessions.changed(sid)
        return handed

    async def resume(self, tenant_id: str, sid: str) -> SessionRow:
        row = await self._row(tenant_id, sid)
        result = await self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == sid, SessionRow.status == "handed_off")
            .values(status="active")
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            raise ConflictError(f"session {sid!r} is {row.status}, not handed_off")
        await self.sessions.changed(sid)
        await self.session.refresh(row)
        return row

    async def idle_candidates(self, now: datetime, limit: int = 500) -> list[tuple[str, str]]:
        """Sessions of bots with an idle timeout idle past it — no message, no call, since:
        (id, tenant). One query: each session's last message and last call come with it."""
        last_message = (
            select(func.max(MessageRow.created_at))
            .where(MessageRow.session_id == SessionRow.id)
            .scalar_subquery()
        )
        last_call = (
            select(func.max(ToolCallRow.at))
            .where(ToolCallRow.session_id == SessionRow.id)
            .scalar_subquery()
        )
        rows = (
            await self.session.execute(
                select(
                    SessionRow.id,
                    SessionRow.tenant_id,
                    SessionRow.created_at,
                    BotRow.idle_timeout_s,
                    last_message,
                    last_call,
                )
                .join(
                    BotRow,
                    and_(BotRow.tenant_id == SessionRow.tenant_id, BotRow.name == SessionRow.bot),
                )
                .where(SessionRow.status != "ended", BotRow.idle_timeout_s.is_not(None))
                .limit(limit * 4)
            )
        ).all()
        idle = []
        for sid, tenant_id, created, timeout, message, call in rows:
            last = max(t for t in (created, _utc(message), _utc(call)) if t is not None)
            if last <= now - timedelta(seconds=timeout or 0):
                idle.append((sid, tenant_id))
        return idle[:limit]

    async def end_if_idle(self, sid: str, now: datetime) -> bool:
        """End it unless it ended meanwhile — the node whose update changes the row ends it."""
        return await self._end_if(sid, "idle", now, SessionRow.status != "ended")

    async def counts(self, sid: str) -> tuple[int, int]:
        messages = await self.session.scalar(
            select(func.count()).where(MessageRow.session_id == sid)
        )
        calls = await self.session.scalar(select(func.count()).where(ToolCallRow.session_id == sid))
        return int(messages or 0), int(calls or 0)

    async def page(
        self,
        tenant_id: str,
        *,
        bot: str | None,
        status: str | None,
        customer: str | None,
        since: datetime | None,
        until: datetime | None,
        limit: int,
        after: tuple[datetime, str] | None,
    ) -> list[SessionRow]:
        """One page of the tenant's sessions, newest first."""
        stmt = select(SessionRow).where(SessionRow.tenant_id == tenant_id)
        for column, value in (
            (SessionRow.bot, bot),
            (SessionRow.status, status),
            (SessionRow.customer, customer),
        ):
            if value is not None:
                stmt = stmt.where(column == value)
        if since is not None:
            stmt = stmt.where(SessionRow.created_at >= since)
        if until is not None:
            stmt = stmt.where(SessionRow.created_at < until)
        if after is not None:
            at, sid = after
            stmt = stmt.where(
                or_(
                    SessionRow.created_at < at,
                    and_(SessionRow.created_at == at, SessionRow.id < sid),
                )
            )
        stmt = stmt.order_by(SessionRow.created_at.desc(), SessionRow.id.desc()).limit(limit)
        return list(await self.session.scalars(stmt))

    # session-end hooks ------------------------------------------------------------------------
    async def queue_hooks(self, tenant_id: str, sid: str, tools: list[str], now: datetime) -> None:
        for tool in tools:
            self.session.add(
                SessionEndHookRow(
                    session_id=sid,
                    tool=tool,
                    tenant_id=tenant_id,
                    status="pending",
                    created_at=now,
                )
            )
        await self.session.flush()

    async def claim_hooks(
        self, now: datetime, lease_s: float, limit: int = 20
    ) -> list[SessionEndHookRow]:
        """Pending hooks, and running ones whose node let the lease pass (it died): each claimed
        by one node — the claim is a conditional update."""
        rows = list(
            await self.session.scalars(
                select(SessionEndHookRow)
                .where(
                    or_(
                        SessionEndHookRow.status == "pending",
                        and_(
                            SessionEndHookRow.status == "running",
                            SessionEndHookRow.lease_until < now,
                        ),
                    )
                )
                .limit(limit)
            )
        )
        claimed = []
        for row in rows:
            result = await self.session.execute(
                update(SessionEndHookRow)
                .where(
                    SessionEndHookRow.session_id == row.session_id,
                    SessionEndHookRow.tool == row.tool,
                    SessionEndHookRow.status == row.status,
                    SessionEndHookRow.attempts == row.attempts,
                )
                .values(
                    status="running",
                    attempts=row.attempts + 1,
                    lease_until=now + timedelta(seconds=lease_s),
                )
            )
            if result.rowcount == 1:  # type: ignore[attr-defined]
                claimed.append(row)
        return claimed

    async def extend_hook(self, sid: str, tool: str, attempt: int, until: datetime) -> bool:
        """Move a running hook's lease to ``until``, if this run (its ``attempt``) still holds
        it; False when another node took the hook over."""
        result = await self.session.execute(
            update(SessionEndHookRow)
            .where(
                SessionEndHookRow.session_id == sid,
                SessionEndHookRow.tool == tool,
                SessionEndHookRow.status == "running",
                SessionEndHookRow.attempts == attempt,
            )
            .values(lease_until=until)
        )
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def finish_hook(self, sid: str, tool: str, status: str, outcome: str | None) -> None:
        await self.session.execute(
            update(SessionEndHookRow)
            .where(SessionEndHookRow.session_id == sid, SessionEndHookRow.tool == tool)
            .values(status=status, outcome=outcome, lease_until=None)
        )

    async def hooks_of(self, sid: str) -> list[SessionEndHookRow]:
        stmt = (
            select(SessionEndHookRow)
            .where(SessionEndHookRow.session_id == sid)
            .order_by(SessionEndHookRow.tool)
        )
        return list(await self.session.scalars(stmt))


def _utc(value: datetime | None) -> datetime | None:
    """A scalar subquery's time comes back naive from SQLite: it is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)
