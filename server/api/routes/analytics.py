"""Developers: how their tools behave — per-tool figures computed in SQL over the call log."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, acting_tenant, require
from server.api.views import aware
from server.errors import FieldError, ValidationFailedError
from server.storage.tables import utcnow

router = APIRouter(prefix="/v1/analytics", tags=["analytics"])
DEFAULT_RANGE = timedelta(days=7)
MAX_RANGE = timedelta(days=366)
MOST_USED = 5


@router.get("/tools")
async def tool_analytics(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    since: Annotated[
        datetime | None, Query(description="ISO 8601 with zone; default until−7d")
    ] = None,
    until: Annotated[datetime | None, Query(description="ISO 8601 with zone; default now")] = None,
    tool: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """Per tool: calls, success rate, p50/p95 latency (ms, nearest rank), cache hit rate,
    breaker openings and the last errors; most used first. Test runs are not counted.
    Tenant keys see their own tenant; admins one tenant (`?tenant=`) or, without it, all."""
    require(principal, "developer")
    scope = None if principal.is_admin and tenant is None else acting_tenant(principal, tenant)
    end = aware(until, "until") or utcnow()
    start = aware(since, "since") or end - DEFAULT_RANGE
    if start >= end:
        raise ValidationFailedError([FieldError("must be before `until`", field="since")])
    if end - start > MAX_RANGE:
        raise ValidationFailedError([FieldError("the range is at most 366 days", field="since")])
    await runtime.call_log.flush()  # this node's pending rows count too
    figures = await store.calls.analytics(scope, start, end, tool)
    offered = await store.messages.offered_and_called(scope, start, end)
    tools = [{**f.public(), **_used(offered.get(f.tool))} for f in figures]
    return {
        "tenant": scope,
        "since": start.isoformat(),
        "until": end.isoformat(),
        "tools": tools,
        "most_used": [f.tool for f in figures[:MOST_USED]],
        # the agent loop's model calls: which tools it was offered and ignored (prune those)
        "offered": sorted(
            (
                {"tool": name, **_used(counts)}
                for name, counts in offered.items()
                if tool in (None, name)
            ),
            key=lambda e: (-e["ignored_rate"], e["tool"]),
        ),
    }


def _used(counts: tuple[int, int] | None) -> dict[str, Any]:
    offered, called = counts or (0, 0)
    rate = round(1 - called / offered, 4) if offered else 0.0
    return {"offered": offered, "called": called, "ignored_rate": rate}
