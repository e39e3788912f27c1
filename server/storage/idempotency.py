"""``Idempotency-Key`` records: the first answer to a POST, replayed to its retries.

A request claims its key in a transaction of its own, committed before it runs, so concurrent
retries on any node see the claim at once: one runs, the others are told it is in progress (or, once
it has answered, get that answer). On SQLite — one writer at a time, and the request may already
hold the write lock — the claim is made in the request's own transaction instead: the database's
lock then orders concurrent retries, and a failed request's rollback releases it. The answer is
stored after it was sent; a request that failed releases its key so that a retry runs again. A claim
whose lease passed (its node died) can be taken over. Records older than a day are deleted as new
ones are made.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from sqlalchemy import and_, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.storage.database import dialect_name
from server.storage.tables import IdempotencyKeyRow, utcnow

KEEP = timedelta(days=1)
SCOPE_CHARS = 64  # the column's size
Outcome = Literal["run", "replay", "mismatch", "running"]


def stored(scope: str) -> str:
    """The scope as its column holds it: a scope longer than the column (it names what a caller
    wrote, such as an admin's ``?tenant=``) is kept as its digest, which stays unique."""
    if len(scope) <= SCOPE_CHARS:
        return scope
    return "sha256:" + hashlib.sha256(scope.encode("utf-8", "surrogatepass")).hexdigest()[:57]


@dataclass(frozen=True)
class Claim:
    outcome: Outcome
    status: int | None = None
    response: bytes | None = None
    media_type: str | None = None


class IdempotencyKeys:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def claim(
        self,
        key_id: str,
        scope: str,
        idem_key: str,
        body_hash: str,
        lease_s: float,
        within: AsyncSession | None = None,
    ) -> Claim:
        """Claim the key in a transaction of its own, or in ``within`` (SQLite)."""
        scope = stored(scope)
        if within is not None:
            return await self._claim(within, key_id, scope, idem_key, body_hash, lease_s)
        async with self.sessions() as session, session.begin():
            return await self._claim(session, key_id, scope, idem_key, body_hash, lease_s)

    async def _claim(
        self,
        session: AsyncSession,
        key_id: str,
        scope: str,
        idem_key: str,
        body_hash: str,
        lease_s: float,
    ) -> Claim:
        now = utcnow()
        row = IdempotencyKeyRow
        match = and_(row.key_id == key_id, row.scope == scope, row.idem_key == idem_key)
        insert_ = pg_insert if dialect_name(session) == "postgresql" else sqlite_insert
        inserted = await session.execute(
            insert_(row)
            .values(
                key_id=key_id,
                scope=scope,
                idem_key=idem_key,
                body_hash=body_hash,
                lease_until=now + timedelta(seconds=lease_s),
                created_at=now,
            )
            .on_conflict_do_nothing(index_elements=["key_id", "scope", "idem_key"])
            .returning(row.idem_key)
        )
        if inserted.first() is not None:
            await session.execute(delete(row).where(row.created_at < now - KEEP))
            return Claim("run")
        found = await session.scalar(select(row).where(match))
        if found is None:  # deleted meanwhile: a retry of the retry will find it free
            return Claim("running")
        if found.body_hash != body_hash:
            return Claim("mismatch")
        if found.status is not None:
            return Claim("replay", found.status, found.response, found.media_type)
        if found.lease_until < now:  # its node died while running it
            await session.execute(
                update(row)
                .where(match, row.status.is_(None))
                .values(lease_until=now + timedelta(seconds=lease_s))
            )
            return Claim("run")
        return Claim("running")

    async def keep(
        self,
        key_id: str,
        scope: str,
        idem_key: str,
        status: int,
        body: bytes,
        media_type: str,
        within: AsyncSession | None = None,
    ) -> None:
        """Store the answer: in a transaction of its own, or in ``within`` (SQLite: the
        request's, which holds the claim — a retry waiting on it then finds the answer)."""
        scope = stored(scope)
        row = IdempotencyKeyRow
        statement = (
            update(row)
            .where(row.key_id == key_id, row.scope == scope, row.idem_key == idem_key)
            .values(status=status, response=body, media_type=media_type)
        )
        if within is not None:
            await within.execute(statement)
            return
        async with self.sessions() as session, session.begin():
            await session.execute(statement)

    async def release(
        self, key_id: str, scope: str, idem_key: str, within: AsyncSession | None = None
    ) -> None:
        scope = stored(scope)
        row = IdempotencyKeyRow
        statement = delete(row).where(
            row.key_id == key_id,
            row.scope == scope,
            row.idem_key == idem_key,
            row.status.is_(None),
        )
        if within is not None:
            await within.execute(statement)
            return
        async with self.sessions() as session, session.begin():
            await session.execute(statement)
