"""Developers: every tool the tenant's agents can be given, with how each is doing now."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.storage.tables import utcnow

router = APIRouter(prefix="/v1", tags=["tools"])


@router.get("/catalog")
async def catalog(
    principal: PrincipalDep, runtime: RuntimeDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """The tenant's own tools (disabled ones too), the shared global tools it may use and the
    built-in skills, by name: kind, origin (`tenant`, `global`, `builtin`), version, enabled,
    its description and parameters (a global or built-in tool's source is not the tenant's to
    read), breaker (`closed`, `open`, `half_open`) and the calls and success rate of the last
    day."""
    tenant_id = developer_tenant(principal, tenant)
    view = await runtime.registry.view(store, tenant_id)
    breakers = await runtime.tracker.tenant_breakers(tenant_id)
    now = utcnow()
    await runtime.call_log.flush()
    figures = {
        f.tool: f for f in await store.calls.analytics(tenant_id, now - timedelta(days=1), now)
    }
    entries: dict[str, dict[str, Any]] = {}
    for tool in view.visible.values():
        entries[tool.name] = {
            "name": tool.name,
            "kind": tool.kind,
            "origin": tool.origin,
            "version": tool.version,
            "enabled": tool.enabled,
            "description": tool.description,
            "parameters": tool.parameters,
        }
    for row, version in await store.tools.list(tenant_id):  # disabled ones are not visible
        entries[row.name] = {
            "name": row.name,
            "kind": version.kind,
            "origin": "tenant",
            "version": version.version,
            "enabled": row.enabled,
            "description": version.description,
            "parameters": version.parameters,
        }
    for name, entry in entries.items():
        entry["breaker"] = (
            "open"
            if name in breakers.open
            else "half_open"
            if name in breakers.half_open
            else "closed"
        )
        found = figures.get(name)
        entry["calls_last_day"] = found.calls if found else 0
        entry["success_rate_last_day"] = found.public()["success_rate"] if found else None
    return {"tools": [entries[name] for name in sorted(entries)]}
