"""Developers: the model providers their bots' agent loop talks to. Keys go in and never come
out (encrypted with the server's secret box)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, developer_tenant
from server.api.views import ProviderBody, iso
from server.egress import EgressDenied, parse_url
from server.errors import FieldError, ValidationFailedError

router = APIRouter(prefix="/v1/providers", tags=["providers"])
ProviderName = Annotated[str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")]


@router.put("/{name}", responses={201: {"description": "Created"}})
async def put_provider(
    name: ProviderName,
    body: ProviderBody,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Create or replace a provider (leave `api_key` out to keep the stored one)."""
    tenant_id = developer_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    if body.base_url is not None:
        try:
            parse_url(body.base_url)
        except EgressDenied as exc:
            raise ValidationFailedError([FieldError(str(exc), field="base_url")]) from None
    existing = await store.providers.find(tenant_id, name)
    if existing is None and body.api_key is None and body.base_url is None:
        raise ValidationFailedError(
            [
                FieldError(
                    "a new provider needs an api_key (or a base_url of a server without keys)",
                    field="api_key",
                )
            ]
        )
    row, created = await store.providers.put(
        tenant_id, name, body.kind, body.base_url, body.models, body.api_key
    )
    # announced as a registry change: nodes' agent loops keep provider settings per registry version
    await store.changed(principal.key_id, tenant_id, "provider.put", name, {"kind": body.kind})
    response.status_code = 201 if created else 200
    return _public(row)


@router.get("")
async def list_providers(
    principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    return {"providers": [_public(r) for r in await store.providers.list(tenant_id)]}


@router.get("/{name}")
async def get_provider(
    name: ProviderName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    return _public(await store.providers.get(developer_tenant(principal, tenant), name))


@router.delete("/{name}", status_code=204)
async def delete_provider(
    name: ProviderName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant)
    await store.providers.delete(tenant_id, name)
    await store.changed(principal.key_id, tenant_id, "provider.delete", name)
    return Response(status_code=204)


def _public(row: Any) -> dict[str, Any]:
    return {
        "name": row.name,
        "kind": row.kind,
        "base_url": row.base_url,
        "models": row.models,
        "api_key": "********" if row.api_key_ct else None,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }
