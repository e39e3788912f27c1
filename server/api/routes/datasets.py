"""Developers: the data sets the built-in skills read (FAQ, catalog, samples, documents).

``PUT /v1/datasets/{name}?kind=faq`` takes NDJSON, one item per line, streamed in: each line is
checked as it arrives and stored in batches under the set's next version; the version becomes
current only when the last line is in, all in one transaction. A bad line (its number and field
named in the 422), a body over the tenant's allowance (413) or a dropped connection leaves the
set as it was. Every node's skills see the new version at once (the change propagation).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, decode_cursor, keyset, page
from server.api.views import TOOL_NAME, iso
from server.skills.datasets import Kind
from server.skills.uploads import UploadLimits, replace_dataset
from server.storage.repositories import Store

router = APIRouter(prefix="/v1/datasets", tags=["datasets"])
DatasetName = Annotated[str, Path(pattern=TOOL_NAME, examples=["faq"])]
NDJSON = "application/x-ndjson"


@router.put(
    "/{name}",
    responses={201: {"description": "Created (a new data set)"}},
    # NDJSON; text/plain too (the same lines), for clients that cannot name NDJSON
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                NDJSON: {"schema": {"type": "string"}},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    },
)
async def put_dataset(
    name: DatasetName,
    request: Request,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    runtime: RuntimeDep,
    kind: Annotated[
        Kind | None,
        Query(description="faq, catalog, samples or documents (default: the set's kind)"),
    ] = None,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Replace a data set with the NDJSON body (201 when new)."""
    tenant_id = developer_tenant(principal, tenant)
    settings = runtime.settings
    limits = UploadLimits(settings.dataset_max_bytes, settings.dataset_max_items)
    uploaded = await replace_dataset(
        store, limits, principal.key_id, tenant_id, name, kind, request.stream()
    )
    response.status_code = 201 if uploaded.created else 200
    return _public(uploaded.row)


@router.get("")
async def list_datasets(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's data sets by name."""
    tenant_id = developer_tenant(principal, tenant)
    rows, next_cursor = page(
        await store.datasets.list(tenant_id), lambda r: [r.name], limit, cursor
    )
    return {"datasets": [_public(r) for r in rows], "next_cursor": next_cursor}


@router.get("/{name}")
async def get_dataset(
    name: DatasetName,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """A data set and a page of its items, in upload order."""
    tenant_id = developer_tenant(principal, tenant)
    row = await store.datasets.get(tenant_id, name)
    items, next_cursor = await items_page(store, tenant_id, row, limit, cursor)
    return {**_public(row), "data": items, "next_cursor": next_cursor}


async def items_page(
    store: Store, tenant_id: str, row: Any, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of a data set's current items in upload order, and the cursor of the next."""
    after = decode_cursor(cursor, 1)
    read = await store.datasets.page(
        tenant_id, row.name, row.version, int(after[0]) if after else -1, limit + 1
    )
    rows, next_cursor = keyset(read, limit, lambda r: [r[0]])
    return [data for _, data in rows], next_cursor


@router.delete("/{name}", status_code=204)
async def delete_dataset(
    name: DatasetName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant)
    await store.datasets.delete(tenant_id, name)
    await store.datasets_changed(principal.key_id, tenant_id, "dataset.delete", name)
    return Response(status_code=204)


def _public(row: Any) -> dict[str, Any]:
    return {
        "name": row.name,
        "kind": row.kind,
        "version": row.version,
        "items": row.items,
        "bytes": row.bytes,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }
