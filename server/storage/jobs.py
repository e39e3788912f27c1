"""Long-running tool jobs in storage (``server.calls.jobs`` runs them).

A job is queued in the unit of work of the call that started it, so it exists exactly when that
call's answer (``{"job": id}``) does. A node claims it with a lease that it renews while the job
runs; a node that dies stops renewing, and another claims the job once the lease has passed.
Every write of a running job is conditional on the run that holds it (its ``attempts``), so a
node that lost its lease can neither report progress nor finish the job: it finishes once. Each
change is announced (``j:<job>``) to every node as it commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import orjson
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import ConflictError, NotFoundError
from server.propagation import announce
from server.records import StoredJob
from server.secretbox import SecretBox
from server.storage.tables import JobRow

UNFINISHED = ("queued", "running")
FINISHED = ("succeeded", "failed", "cancelled")


def arguments_binding(tenant_id: str, job_id: str) -> str:
    return f"job:{tenant_id}:{job_id}"


class JobRepository:
    def __init__(self, session: AsyncSession, box: SecretBox) -> None:
        self.session = session
        self.box = box
        # the jobs this unit of work changed, and their sessions (the node's waiters, streams)
        self.changed: dict[str, str | None] = {}

    async def _changed(self, job_id: str, session_id: str | None) -> None:
        if job_id not in self.changed:
            self.changed[job_id] = session_id
            await announce(self.session, f"j:{job_id}:{session_id or ''}")

    async def create(
        self,
        *,
        tenant_id: str,
        session_id: str | None,
        bot: str | None,
        tool: str,
        version: int,
        kind: str,
        arguments: Any,
        timeout_s: int,
        now: datetime,
        message_id: str | None = None,
        location: str | None = None,
    ) -> JobRow:
        job_id = uuid.uuid4().hex
        row = JobRow(
            id=job_id,
            tenant_id=tenant_id,
            session_id=session_id,
            bot=bot,
            tool=tool,
            version=version,
            kind=kind,
            arguments_ct=self.box.encrypt(
                orjson.dumps(arguments).decode(), arguments_binding(tenant_id, job_id)
            ),
            location=location,
            status="queued",
            timeout_s=timeout_s,
            message_id=message_id,
            created_at=now,
            attempts=0,
            cancel_requested=False,
            deliver=False,
            cpu_ms=0.0,
        )
        self.session.add(row)
        await self.session.flush()
        await self._changed(job_id, session_id)
        return row

    def arguments(self, row: StoredJob) -> Any:
        binding = arguments_binding(row.tenant_id, row.id)
        return orjson.loads(self.box.decrypt(row.arguments_ct, binding))

    async def unfinished(self, tenant_id: str) -> int:
        """The tenant's jobs queued or running (its cap counts them)."""
        count = await self.session.scalar(
            select(func.count())
            .select_from(JobRow)
            .where(JobRow.tenant_id == tenant_id, JobRow.status.in_(UNFINISHED))
        )
        return int(count or 0)

    async def get(self, tenant_id: str, job_id: str) -> JobRow:
        row = await self.session.get(JobRow, job_id, populate_existing=True)
        if row is None or row.tenant_id != tenant_id:
            raise NotFoundError(f"job {job_id!r} not found")
        return row

    async def find(self, job_id: str) -> JobRow | None:
        return await self.session.get(JobRow, job_id, populate_existing=True)

    async def claim(self, now: datetime, lease_s: float, limit: int) -> list[JobRow]:
        """Queued jobs, and running ones whose node let the lease pass (it died): each claimed
        by one node (a conditional update), its ``attempts`` counting this run."""
        if limit <= 0:
            return []
        rows = list(
            await self.session.scalars(
                select(JobRow)
                .where(
                    or_(
                        JobRow.status == "queued",
                        and_(JobRow.status == "running", JobRow.lease_until < now),
                    )
                )
                .order_by(JobRow.created_at)
                .limit(limit)
            )
        )
        claimed = []
        for row in rows:
            result = await self.session.execute(
                update(JobRow)
                .where(
                    JobRow.id == row.id,
                    JobRow.status == row.status,
                    JobRow.attempts == row.attempts,
                )
                .values(
                    status="running",
                    attempts=row.attempts + 1,
                    lease_until=now + timedelta(seconds=lease_s),
                    started_at=row.started_at or now,
                )
                .execution_options(synchronize_session=False)
            )
            if result.rowcount == 1:  # type: ignore[attr-defined]
                await self.session.refresh(row)
                await self._changed(row.id, row.session_id)
                claimed.append(row)
        return claimed

    def _held(self, job_id: str, attempt: int) -> Any:
        return and_(JobRow.id == job_id, JobRow.status == "running", JobRow.attempts == attempt)

    async def extend(self, job_id: str, attempt: int, until: datetime) -> tuple[bool, bool]:
        """Move the run's lease to ``until``: (whether this run still holds the job, whether a
        cancel was asked for)."""
        result = await self.session.execute(
            update(JobRow)
            .where(self._held(job_id, attempt))
            .values(lease_until=until)
            .returning(JobRow.cancel_requested)
        )
        found = result.first()
        return (found is not None, bool(found and found[0]))

    async def report(
        self,
        job_id: str,
        attempt: int,
        session_id: str | None,
        progress: float | None,
        message: str | None,
    ) -> bool:
        """The run's progress (0 to 1) and what it is doing; False if it no longer holds it."""
        result = await self.session.execute(
            update(JobRow)
            .where(self._held(job_id, attempt))
            .values(progress=progress, message=message)
        )
        held = bool(result.rowcount == 1)  # type: ignore[attr-defined]
        if held:
            await self._changed(job_id, session_id)
        return held

    async def locate(self, job_id: str, attempt: int, location: str) -> bool:
        """A webhook's job: where its state is asked for from now on (a takeover asks there)."""
        result = await self.session.execute(
            update(JobRow).where(self._held(job_id, attempt)).values(location=location)
        )
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def finish(
        self,
        job_id: str,
        attempt: int | None,
        session_id: str | None,
        status: str,
        result: dict[str, Any],
        now: datetime,
        cpu_ms: float = 0.0,
    ) -> JobRow | None:
        """End the job with its final envelope, if this run holds it (``attempt``; None: a job
        that never ran, still queued); None when another run holds or ended it."""
        held = (
            and_(JobRow.id == job_id, JobRow.status == "queued")
            if attempt is None
            else self._held(job_id, attempt)
        )
        done = await self.session.execute(
            update(JobRow)
            .where(held)
            .values(
                status=status,
                result=result,
                finished_at=now,
                lease_until=None,
                cpu_ms=cpu_ms,
                progress=1.0 if status == "succeeded" else JobRow.progress,
            )
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return None
        await self._changed(job_id, session_id)
        return await self.find(job_id)

    async def cancel(self, tenant_id: str, job_id: str) -> JobRow:
        """Ask for the job's end: a queued job is cancelled at once, a running one when its node
        next renews the lease. 409 if it has finished."""
        row = await self.get(tenant_id, job_id)
        if row.status in FINISHED:
            raise ConflictError(f"job {job_id!r} has already {row.status}")
        await self.session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status.in_(UNFINISHED))
            .values(cancel_requested=True)
        )
        await self._changed(job_id, row.session_id)
        return await self.get(tenant_id, job_id)

    async def defer(self, job_id: str) -> bool:
        """The agent loop stopped waiting: the job's end is delivered to its conversation as a
        later message. False when it has finished meanwhile (the loop takes its result)."""
        result = await self.session.execute(
            update(JobRow)
            .where(JobRow.id == job_id, JobRow.status.in_(UNFINISHED))
            .values(deliver=True)
        )
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def page(
        self,
        tenant_id: str,
        *,
        session_id: str | None,
        status: str | None,
        limit: int,
        after: tuple[datetime, str] | None,
    ) -> Sequence[JobRow]:
        """One page of the tenant's jobs, newest first."""
        stmt = select(JobRow).where(JobRow.tenant_id == tenant_id)
        if session_id is not None:
            stmt = stmt.where(JobRow.session_id == session_id)
        if status is not None:
            stmt = stmt.where(JobRow.status == status)
        if after is not None:
            at, jid = after
            stmt = stmt.where(
                or_(JobRow.created_at < at, and_(JobRow.created_at == at, JobRow.id < jid))
            )
        stmt = stmt.order_by(JobRow.created_at.desc(), JobRow.id.desc()).limit(limit)
        return list(await self.session.scalars(stmt))
