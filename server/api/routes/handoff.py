"""Developers: where their handoffs are announced (a webhook, signed with HMAC-SHA256)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.api.views import HandoffBody
from server.egress import EgressDenied, parse_url
from server.errors import FieldError, ValidationFailedError
from server.storage.repositories import handoff_binding

router = APIRouter(prefix="/v1", tags=["sessions"])


@router.put("/handoff")
async def set_handoff(
    body: HandoffBody,
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """When a session is handed to a person, `POST` `{event, tenant, session, bot, tool, reason,
    at}` to `url` with `X-Quiver-Signature: sha256=<HMAC-SHA256 of the body with secret>`,
    through the egress guard. A null `url` stops the announcements."""
    tenant_id = developer_tenant(principal, tenant)
    row = await store.tenants.get(tenant_id)
    if body.url is not None:
        try:
            parse_url(body.url)
        except EgressDenied as exc:
            raise ValidationFailedError([FieldError(str(exc), field="url")]) from None
        if body.secret is None and row.handoff_secret_ct is None:
            raise ValidationFailedError(
                [FieldError("a webhook needs a secret to sign with", field="secret")]
            )
    row.handoff_url = body.url
    if body.secret is not None:
        row.handoff_secret_ct = runtime.box.encrypt(body.secret, handoff_binding(tenant_id))
    store.audit.record(principal.key_id, tenant_id, "handoff.set", tenant_id, {"url": body.url})
    return {"url": row.handoff_url, "secret": "********" if row.handoff_secret_ct else None}


@router.get("/handoff")
async def get_handoff(
    principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    row = await store.tenants.get(developer_tenant(principal, tenant))
    return {"url": row.handoff_url, "secret": "********" if row.handoff_secret_ct else None}
