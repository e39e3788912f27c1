"""Admin: tenants, their keys and their shared-tools allowlists."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from sandbox.restricted.facades import REVIEWED_EXTRA
from server import guardrails
from server.api.deps import AdminDep, PrincipalDep, RuntimeDep, StoreDep
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.views import (
    EgressUpdate,
    KeyCreate,
    LimitsUpdate,
    ModulesUpdate,
    SharedToolsUpdate,
    TenantCreate,
    key_public,
    tenant_public,
)
from server.egress import allow_entry
from server.errors import FieldError, ValidationFailedError

router = APIRouter(prefix="/v1", tags=["tenants"])


@router.get("/whoami")
async def whoami(principal: PrincipalDep) -> dict[str, Any]:
    """The calling key: its id, role and tenant (none for admins) — what a console shows."""
    return {"key_id": principal.key_id, "role": principal.role, "tenant": principal.tenant_id}


@router.post("/tenants", status_code=201)
async def create_tenant(body: TenantCreate, admin: AdminDep, store: StoreDep) -> dict[str, Any]:
    row = await store.tenants.create(body.id, body.name or body.id)
    store.audit.record(admin.key_id, row.id, "tenant.create", row.id)
    return tenant_public(row)


@router.get("/tenants")
async def list_tenants(
    admin: AdminDep, store: StoreDep, limit: LimitQuery = 100, cursor: CursorQuery = None
) -> dict[str, Any]:
    """Tenants by id, a page at a time."""
    rows, next_cursor = page(await store.tenants.list(), lambda r: [r.id], limit, cursor)
    return {"tenants": [tenant_public(r) for r in rows], "next_cursor": next_cursor}


@router.get("/tenants/{tenant}")
async def get_tenant(tenant: str, admin: AdminDep, store: StoreDep) -> dict[str, Any]:
    return tenant_public(await store.tenants.get(tenant))


@router.put("/tenants/{tenant}/shared-tools")
async def set_shared_tools(
    tenant: str, body: SharedToolsUpdate, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Replace the allowlist of global tools the tenant may see (`["*"]` = all)."""
    before = list((await store.tenants.get(tenant)).shared_tools or [])
    row = await store.tenants.set_shared_tools(tenant, body.tools)
    await store.changed(
        admin.key_id, tenant, "tenant.shared_tools", tenant, {"before": before, "after": body.tools}
    )
    await store.session.refresh(row)
    return tenant_public(row)


@router.post("/tenants/{tenant}/keys", status_code=201)
async def create_key(
    tenant: str, body: KeyCreate, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Create a developer or agent key. The secret is in this response only."""
    await store.tenants.get(tenant)
    row, key = await store.keys.create(body.role, tenant, body.label, created_by=admin.key_id)
    store.audit.record(admin.key_id, tenant, "key.create", row.id, {"role": body.role})
    return {**key_public(row), "key": key.token}


@router.get("/tenants/{tenant}/keys")
async def list_keys(
    tenant: str,
    admin: AdminDep,
    store: StoreDep,
    runtime: RuntimeDep,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """A tenant's keys, oldest first, a page at a time (secrets are never shown)."""
    await runtime.key_touches.flush()  # this node's noted uses first: read your own
    await store.tenants.get(tenant)
    keys = await store.keys.list(tenant)
    rows, next_cursor = page(keys, lambda r: [r.created_at.isoformat(), r.id], limit, cursor)
    return {"keys": [key_public(r) for r in rows], "next_cursor": next_cursor}


@router.delete("/keys/{key_id}", status_code=204)
async def revoke_key(key_id: str, admin: AdminDep, store: StoreDep) -> Response:
    row = await store.keys.revoke(key_id)
    store.revoked_keys.add(key_id)
    store.audit.record(admin.key_id, row.tenant_id, "key.revoke", key_id)
    return Response(status_code=204)


@router.put("/tenants/{tenant}/modules")
async def set_sandbox_modules(
    tenant: str, body: ModulesUpdate, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Grant the tenant's code tools extra importable modules from the reviewed table."""
    unknown = [m for m in body.modules if m not in REVIEWED_EXTRA]
    if unknown:
        allowed = ", ".join(sorted(REVIEWED_EXTRA))
        raise ValidationFailedError(
            [
                FieldError(
                    f"{unknown[0]!r} is not in the reviewed table ({allowed})", field="modules"
                )
            ]
        )
    row = await store.tenants.get(tenant)
    before = list(row.sandbox_modules or [])
    row.sandbox_modules = sorted(set(body.modules))
    await store.changed(
        admin.key_id,
        tenant,
        "tenant.sandbox_modules",
        tenant,
        {"before": before, "after": row.sandbox_modules},
    )
    await store.session.refresh(row)
    return tenant_public(row)


@router.put("/tenants/{tenant}/egress")
async def set_egress_allow(
    tenant: str, body: EgressUpdate, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Admit internal hosts or CIDRs for this tenant's webhooks and ``context.modules.http``;
    ``host:port`` (``[::1]:port``) admits that port only."""
    for i, item in enumerate(body.allow):
        if allow_entry(item) is None:
            raise ValidationFailedError(
                [FieldError(f"{item!r} is neither a host name nor a CIDR", field=f"allow[{i}]")]
            )
    row = await store.tenants.get(tenant)
    before = list(row.egress_allow or [])
    row.egress_allow = sorted({item.strip().lower() for item in body.allow})
    await store.changed(
        admin.key_id,
        tenant,
        "tenant.egress_allow",
        tenant,
        {"before": before, "after": row.egress_allow},
    )
    await store.session.refresh(row)
    return tenant_public(row)


@router.put("/tenants/{tenant}/guardrails")
async def set_guardrails(
    tenant: str, body: dict[str, Any], admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """The tenant's guardrails, checked before and after every call of its tools on every
    door: deny rules, personal data redacted, size limits, a policy hook (docs/guardrails.md).
    `{}` removes them. Every node applies them at once."""
    _, problems = guardrails.parse(body)
    if problems:
        raise ValidationFailedError([FieldError(m, field=f or None) for f, m in problems])
    row = await store.tenants.get(tenant)
    before = dict(row.guardrails or {})
    row.guardrails = body
    await store.changed(
        admin.key_id, tenant, "tenant.guardrails", tenant, {"before": before, "after": body}
    )
    await store.session.refresh(row)
    return tenant_public(row)


@router.put("/tenants/{tenant}/limits")
async def set_limits(
    tenant: str, body: LimitsUpdate, admin: AdminDep, store: StoreDep
) -> dict[str, Any]:
    """Override the tenant's request rates and daily quotas (what the body leaves out follows
    the server's defaults; `null` lifts that limit). Every node applies it at once."""
    row = await store.tenants.get(tenant)
    before = dict(row.limits or {})
    row.limits = body.model_dump(exclude_unset=True)
    await store.changed(
        admin.key_id, tenant, "tenant.limits", tenant, {"before": before, "after": row.limits}
    )
    await store.session.refresh(row)
    return tenant_public(row)
