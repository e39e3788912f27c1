"""Once-per-session runs, claimed before they run (``metadata.once_per_session``).

Each claim is its own short transaction, committed before the tool starts, so concurrent
calls on any node see it at once and no write lock is held while the tool runs (SQLite has one
writer at a time). Exactly one caller inserts the row and runs; the others are told the tool is
already done (or running). (On SQLite, a unit of work that already holds the write lock —
an Idempotency-Key claimed in it — makes the claim in it instead.) The run's own unit of work
then marks the claim done or, when the run failed, releases it so the tool can be tried again
(``SessionRepository.finish_claim``) — in the same transaction as the run's other writes. A
claim whose lease has passed (its node died mid-run, or its transaction never committed) can be
taken over by the next caller.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import and_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.storage.database import dialect_name
from server.storage.tables import SessionToolClaimRow, utcnow


class OnceClaims:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def claim(
        self, session_id: str, tool: str, lease_s: float, store: Any | None = None
    ) -> bool:
        """True for exactly one caller per (session, tool) until the claim is released: in a
        transaction of its own, committed at once — or, on SQLite, in the caller's unit of
        work when that holds the write lock (``Store.holds_write_lock``): SQLite's one writer
        at a time keeps it exclusive there too."""
        if store is not None and getattr(store, "holds_write_lock", False):
            return await self._claim(store.session, session_id, tool, lease_s)
        async with self.sessions() as session, session.begin():
            return await self._claim(session, session_id, tool, lease_s)

    async def _claim(
        self, session: AsyncSession, session_id: str, tool: str, lease_s: float
    ) -> bool:
        now = utcnow()
        until = now + timedelta(seconds=lease_s)
        row = SessionToolClaimRow
        dialect = dialect_name(session)
        insert_ = pg_insert if dialect == "postgresql" else sqlite_insert
        inserted = await session.execute(
            insert_(row)
            .values(session_id=session_id, tool=tool, done=False, lease_until=until)
            .on_conflict_do_nothing(index_elements=["session_id", "tool"])
            .returning(row.tool)
        )
        if inserted.first() is not None:
            return True
        stale = await session.execute(
            update(row)
            .where(
                and_(
                    row.session_id == session_id,
                    row.tool == tool,
                    row.done.is_(False),
                    row.lease_until < now,
                )
            )
            .values(lease_until=until)
            .returning(row.tool)
        )
        return stale.first() is not None
