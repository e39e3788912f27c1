"""Developers: the leads ``collect_lead`` kept, a page at a time or as CSV."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Response

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, decode_cursor, keyset
from server.skills.service import lead_public

router = APIRouter(prefix="/v1/leads", tags=["skills"])
CSV_COLUMNS = (
    "id",
    "created_at",
    "name",
    "email",
    "phone",
    "interest",
    "customer",
    "session_id",
    "bot",
    "forwarded",
)
CSV_MAX_ROWS = 100_000


@router.get("", responses={200: {"content": {"text/csv": {}}}})
async def list_leads(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
    format: Annotated[
        Literal["json", "csv"],
        Query(description="csv: every lead, oldest first, as a spreadsheet file"),
    ] = "json",
) -> Any:
    """The tenant's leads, oldest first."""
    tenant_id = developer_tenant(principal, tenant)
    if format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, CSV_COLUMNS)
        writer.writeheader()
        rows = await store.leads.page(tenant_id, None, CSV_MAX_ROWS)
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in lead_public(row).items() if k in CSV_COLUMNS})
        headers = {"Content-Disposition": 'attachment; filename="leads.csv"'}
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)
    after = decode_cursor(cursor, 2)
    read = await store.leads.page(tenant_id, (after[0], after[1]) if after else None, limit + 1)
    rows, next_cursor = keyset(read, limit, lambda r: [r.created_at.isoformat(), r.id])
    return {"leads": [lead_public(r) for r in rows], "next_cursor": next_cursor}


def _cell(value: Any) -> Any:
    """A spreadsheet must not run what a customer typed: a leading =, +, - or @ is quoted."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
