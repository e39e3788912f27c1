"""Long-running tool jobs (docs/jobs.md): what a call of a job tool answered with, looked up,
waited for and cancelled. Agent and developer keys see their tenant's jobs (admins name the
tenant with ``?tenant=``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, acting_tenant, require
from server.api.paging import CursorQuery, LimitQuery, decode_time_cursor, encode_cursor
from server.calls import jobs
from server.records import StoredJob

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])

JobId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="the id a call answered")]
MAX_WAIT_S = 60


def _tenant(principal: Any, tenant: str | None) -> str:
    require(principal, "agent", "developer")
    return acting_tenant(principal, tenant)


@router.get("")
async def list_jobs(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    session: Annotated[str | None, Query(max_length=36)] = None,
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"] | None = None,
    limit: LimitQuery = 50,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's jobs, newest first, a page at a time (of one session, in one status)."""
    tenant_id = _tenant(principal, tenant)
    after = decode_time_cursor(cursor)
    rows = await store.jobs.page(
        tenant_id, session_id=session, status=status, limit=limit + 1, after=after
    )
    more, rows = len(rows) > limit, list(rows[:limit])
    last = rows[-1] if rows else None
    return {
        "jobs": [jobs.public(r) for r in rows],
        "next_cursor": encode_cursor(last.created_at.isoformat(), last.id)
        if more and last
        else None,
    }


@router.get("/{job_id}")
async def get_job(
    job_id: JobId,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    wait: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_WAIT_S,
            description="seconds to wait for the job to end before answering (long poll)",
        ),
    ] = 0,
) -> dict[str, Any]:
    """The job: its status, progress and — once it has ended — its final envelope (`result`).
    With `wait`, the answer comes when the job ends or the wait has passed."""
    tenant_id = _tenant(principal, tenant)
    row: StoredJob = await store.jobs.get(tenant_id, job_id)
    if wait and row.status not in jobs.FINISHED:
        await store.checkpoint()  # a long poll holds no database connection
        row = await runtime.services.jobs.wait(tenant_id, job_id, wait)
    return jobs.public(row)


@router.post("/{job_id}/cancel", status_code=202)
async def cancel_job(
    job_id: JobId,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Cancel the job: a queued one at once, a running one as soon as its node hears (its run is
    stopped and the job ends `cancelled`). 409 if it has already ended."""
    tenant_id = _tenant(principal, tenant)
    row = await runtime.services.jobs.cancel(store, tenant_id, job_id)
    return jobs.public(row)
