"""What a tenant may do and has done today: its effective limits and today's counts."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, acting_tenant, require

router = APIRouter(prefix="/v1", tags=["usage"])


@router.get("/usage")
async def usage(
    principal: PrincipalDep, runtime: RuntimeDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """The tenant's limits (the server's defaults with an admin's overrides) and today's calls
    and sandbox CPU milliseconds, counted across every node (UTC days)."""
    require(principal, "developer")
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
    }
