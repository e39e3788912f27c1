"""Developers: forms ``submit_form`` fills in (a JSON Schema each) and their submissions."""

from __future__ import annotations

from typing import Annotated, Any

import jsonschema_rs
from fastapi import APIRouter, Path, Response
from pydantic import Field

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, decode_cursor, keyset, page
from server.api.views import TOOL_NAME, Strict, iso
from server.errors import FieldError, ValidationFailedError

router = APIRouter(prefix="/v1/forms", tags=["skills"])
FormName = Annotated[str, Path(pattern=TOOL_NAME, examples=["callback"])]


class FormBody(Strict):
    description: str = Field(default="", max_length=2000)
    schema_: dict[str, Any] = Field(
        alias="schema",
        description="a JSON Schema of the fields (an object)",
        examples=[
            {"type": "object", "properties": {"when": {"type": "string"}}, "required": ["when"]}
        ],
    )


@router.put("/{name}", responses={201: {"description": "Created (a new form)"}})
async def put_form(
    name: FormName,
    body: FormBody,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    schema = body.schema_
    if schema.get("type") != "object":
        raise ValidationFailedError(
            [FieldError('must be an object schema ("type": "object")', field="schema.type")]
        )
    try:
        jsonschema_rs.validator_for(schema)
    except (jsonschema_rs.ValidationError, ValueError) as exc:
        raise ValidationFailedError(
            [FieldError(f"not a valid JSON Schema: {exc}", field="schema")]
        ) from None
    row, created = await store.forms.put(tenant_id, name, body.description, schema)
    store.audit.record(principal.key_id, tenant_id, "form.put", name)
    response.status_code = 201 if created else 200
    return _public(row)


@router.get("")
async def list_forms(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    rows, next_cursor = page(await store.forms.list(tenant_id), lambda r: [r.name], limit, cursor)
    return {"forms": [_public(r) for r in rows], "next_cursor": next_cursor}


@router.get("/{name}")
async def get_form(
    name: FormName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    return _public(await store.forms.get(developer_tenant(principal, tenant), name))


@router.delete("/{name}", status_code=204)
async def delete_form(
    name: FormName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant)
    await store.forms.delete(tenant_id, name)
    store.audit.record(principal.key_id, tenant_id, "form.delete", name)
    return Response(status_code=204)


@router.get("/{name}/submissions")
async def list_submissions(
    name: FormName,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The form's submissions, oldest first."""
    tenant_id = developer_tenant(principal, tenant)
    await store.forms.get(tenant_id, name)
    after = decode_cursor(cursor, 2)
    read = await store.forms.submissions(
        tenant_id, name, (after[0], after[1]) if after else None, limit + 1
    )
    rows, next_cursor = keyset(read, limit, lambda r: [r.created_at.isoformat(), r.id])
    return {
        "submissions": [
            {
                "id": r.id,
                "fields": r.fields,
                "session_id": r.session_id,
                "customer": r.customer,
                "created_at": iso(r.created_at),
            }
            for r in rows
        ],
        "next_cursor": next_cursor,
    }


def _public(row: Any) -> dict[str, Any]:
    return {
        "name": row.name,
        "description": row.description,
        "schema": row.schema,
        "updated_at": iso(row.updated_at),
    }
