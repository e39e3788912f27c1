"""Developers: secrets their code tools read as ``context.secrets[name]``. Values go in and
never come out: listing shows names and dates only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.views import SecretPut, iso
from server.registry.definitions import SECRET_NAME

router = APIRouter(prefix="/v1/secrets", tags=["secrets"])
SecretName = Annotated[str, Path(pattern=SECRET_NAME, examples=["CRM_TOKEN"])]


@router.put("/{name}", responses={201: {"description": "Created (a new secret)"}})
async def put_secret(
    name: SecretName,
    body: SecretPut,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Set a secret (201 when new). Global tools' secrets: admins with `?tenant=*`."""
    tenant_id = developer_tenant(principal, tenant, allow_global=True)
    if tenant_id != "*":
        await store.tenants.get(tenant_id)
    row, created = await store.secrets.put(tenant_id, name, body.value, principal.key_id)
    store.audit.record(principal.key_id, tenant_id, "secret.put", name)  # never the value
    response.status_code = 201 if created else 200
    return _public(row)


@router.get("")
async def list_secrets(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's secrets by name: names and dates, never values."""
    tenant_id = developer_tenant(principal, tenant, allow_global=True)
    rows, next_cursor = page(await store.secrets.list(tenant_id), lambda r: [r.name], limit, cursor)
    return {"secrets": [_public(r) for r in rows], "next_cursor": next_cursor}


@router.delete("/{name}", status_code=204)
async def delete_secret(
    name: SecretName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant, allow_global=True)
    await store.secrets.delete(tenant_id, name)
    store.audit.record(principal.key_id, tenant_id, "secret.delete", name)
    return Response(status_code=204)


def _public(row: Any) -> dict[str, Any]:
    return {
        "name": row.name,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
        "updated_by": row.updated_by,
    }
