"""Once-per-session runs, claimed before they run (``metadata.once_per_session``).

Each claim is its own short transaction, committed before the tool starts, so concurrent
calls on any node see it at once and no write lock is held while the tool runs (SQLite has one
writer at a time). Exactly one caller inserts the row and runs; the others are told the tool is
already done (or running). The run's own unit of work then marks the claim done or, when the
run failed, releases it so the tool can be tried again (``SessionRepository.finish_claim``) —
in the same transaction as the run's other writes. A claim whose lease has passed (its node
died mid-run, or its transaction never committed) can be taken over by the next caller.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import and_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.storage.database import dialect_name
from server.storage.tables import SessionToolClaimRow, utcnow


class OnceClaims:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def claim(self, session_id: str, tool: str, lease_s: float) -> bool:
        """True for exactly one caller per (session, tool) until the claim is released."""
        now = utcnow()
        until = now + timedelta(seconds=lease_s)
        row = SessionToolClaimRow
        async with self.sessions() as session, session.begin():
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
