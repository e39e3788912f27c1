"""Who changed what, when: the audit log (admins: every tenant's; developers: their own)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, require
from server.api.paging import CursorQuery, LimitQuery, decode_id_cursor, encode_cursor
from server.api.views import aware, iso
from server.errors import ForbiddenError

router = APIRouter(prefix="/v1/audit", tags=["audit"])


@router.get("")
async def read_audit(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    since: Annotated[datetime | None, Query(description="from this time (with its zone)")] = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """Audit lines, newest first: who (`actor`, a key id; `cli` or none for the server's own
    setup), what (`action`, `target`), when (`at`) and, for settings, `detail.before` and
    `detail.after`. Admins read every tenant's (or one: `?tenant=`); developers their own."""
    require(principal, "developer")
    if principal.is_admin:
        tenant_id = tenant
    elif tenant is not None and tenant != principal.tenant_id:
        raise ForbiddenError("a tenant key can only read its own tenant's audit log")
    else:
        tenant_id = principal.tenant_id
    before = decode_id_cursor(cursor)
    rows = await store.audit.read(tenant_id, aware(since, "since"), before, limit + 1)
    more, rows = len(rows) > limit, rows[:limit]
    return {
        "entries": [
            {
                "id": r.id,
                "at": iso(r.at),
                "actor": r.actor,
                "tenant": r.tenant_id,
                "action": r.action,
                "target": r.target,
                "detail": r.detail,
            }
            for r in rows
        ],
        "next_cursor": encode_cursor(rows[-1].id) if more and rows else None,
    }
