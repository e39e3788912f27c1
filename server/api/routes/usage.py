"""What a tenant may do and has done: its effective limits, today's calls and CPU time, and the
model tokens its agent loops used over a range."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, acting_tenant, require
from server.api.views import aware
from server.storage.tables import utcnow

router = APIRouter(prefix="/v1", tags=["usage"])


@router.get("/usage")
async def usage(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    since: Annotated[
        datetime | None, Query(description="tokens from (default: 00:00 UTC today)")
    ] = None,
    until: Annotated[datetime | None, Query(description="tokens until (default: now)")] = None,
    bot: Annotated[str | None, Query(max_length=64)] = None,
    session: Annotated[str | None, Query(max_length=36, description="one session's tokens")] = None,
) -> dict[str, Any]:
    """The tenant's limits (the server's defaults with an admin's overrides), today's calls and
    sandbox CPU milliseconds (UTC day, all nodes), and the model tokens of its agent loops —
    input, output, cached and the share spent on rounds that only dispatched tools. Admins name
    the tenant, or `*` for every tenant's tokens."""
    require(principal, "developer")
    now = utcnow()
    start = aware(since, "since") or now.replace(hour=0, minute=0, second=0, microsecond=0)
    end = aware(until, "until") or now + timedelta(seconds=1)
    if principal.is_admin and tenant == "*":
        return {
            "tenant": "*",
            "tokens": await store.messages.tokens(None, start, end, bot, session),
        }
    tenant_id = acting_tenant(principal, tenant)
    row = await store.tenants.get(tenant_id)
    quotas = runtime.quotas
    assert quotas is not None
    limits = await quotas.limits_for(tenant_id, store.tenants.limits)
    return {
        "tenant": tenant_id,
        "limits": limits.as_dict(),
        "overrides": row.limits or {},
        "today": await quotas.usage(limits, tenant_id),
        "tokens": {
            "since": start.isoformat(),
            "until": end.isoformat(),
            "bot": bot,
            **await store.messages.tokens(tenant_id, start, end, bot),
        },
    }


@router.get("/usage/daily")
async def usage_daily(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    days: Annotated[int, Query(ge=1, le=366, description="how many UTC days, to today")] = 30,
) -> dict[str, Any]:
    """The tenant's calls (test runs left out), successes and model tokens per UTC day, the
    oldest first, every day of the range present (zeros included): a chart over time."""
    require(principal, "developer")
    tenant_id = acting_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    await runtime.call_log.flush()  # the calls answered so far are in the rollups
    today = utcnow().date()
    first = today - timedelta(days=days - 1)
    calls = await store.calls.calls_by_day(tenant_id, first, today)
    start = datetime.combine(first, datetime.min.time(), tzinfo=UTC)
    tokens = await store.messages.tokens_by_day(tenant_id, start, start + timedelta(days=days))
    out = []
    for n in range(days):
        day = first + timedelta(days=n)
        made, ok = calls.get(day, (0, 0))
        inp, outp = tokens.get(day.isoformat(), (0, 0))
        out.append(
            {
                "day": day.isoformat(),
                "calls": made,
                "successes": ok,
                "input_tokens": inp,
                "output_tokens": outp,
            }
        )
    return {"tenant": tenant_id, "days": out}
