"""Developers: calendars of bookable slots (``book_appointment``) and their appointments."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response
from pydantic import Field, field_validator

from server.api.deps import PrincipalDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, page
from server.api.views import TOOL_NAME, Strict, iso

router = APIRouter(prefix="/v1/calendars", tags=["skills"])
CalendarName = Annotated[str, Path(pattern=TOOL_NAME, examples=["visits"])]
MAX_SLOTS = 10_000


class Slot(Strict):
    start: datetime = Field(
        description="ISO 8601 with an offset", examples=["2027-01-05T09:00:00+01:00"]
    )
    end: datetime

    @field_validator("start", "end")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("give the time's offset (e.g. +01:00 or Z)")
        return value


class CalendarBody(Strict):
    description: str = Field(default="", max_length=2000)
    slots: list[Slot] = Field(max_length=MAX_SLOTS)

    @field_validator("slots")
    @classmethod
    def _slots(cls, slots: list[Slot]) -> list[Slot]:
        starts: set[datetime] = set()
        for i, slot in enumerate(slots):
            if slot.end <= slot.start:
                raise ValueError(f"slot {i}: ends before it starts")
            if slot.start in starts:
                raise ValueError(f"slot {i}: another slot starts at {slot.start.isoformat()}")
            starts.add(slot.start)
        return slots


@router.put("/{name}", responses={201: {"description": "Created (a new calendar)"}})
async def put_calendar(
    name: CalendarName,
    body: CalendarBody,
    response: Response,
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
) -> dict[str, Any]:
    """Set the calendar's slots (appointments already booked are kept)."""
    tenant_id = developer_tenant(principal, tenant)
    await store.tenants.get(tenant_id)
    slots = [
        {"start": s.start.isoformat(), "end": s.end.isoformat()}
        for s in sorted(body.slots, key=lambda s: s.start)
    ]
    row, created = await store.calendars.put(tenant_id, name, body.description, slots)
    store.audit.record(principal.key_id, tenant_id, "calendar.put", name)
    response.status_code = 201 if created else 200
    return await _public(store, row)


@router.get("")
async def list_calendars(
    principal: PrincipalDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    limit: LimitQuery = 100,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    tenant_id = developer_tenant(principal, tenant)
    rows, next_cursor = page(
        await store.calendars.list(tenant_id), lambda r: [r.name], limit, cursor
    )
    return {"calendars": [await _public(store, r) for r in rows], "next_cursor": next_cursor}


@router.get("/{name}")
async def get_calendar(
    name: CalendarName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> dict[str, Any]:
    """The calendar with its slots and its appointments."""
    return await _public(
        store, await store.calendars.get(developer_tenant(principal, tenant), name)
    )


@router.delete("/{name}", status_code=204)
async def delete_calendar(
    name: CalendarName, principal: PrincipalDep, store: StoreDep, tenant: TenantQuery = None
) -> Response:
    tenant_id = developer_tenant(principal, tenant)
    await store.calendars.delete(tenant_id, name)
    store.audit.record(principal.key_id, tenant_id, "calendar.delete", name)
    return Response(status_code=204)


async def _public(store: Any, row: Any) -> dict[str, Any]:
    booked = await store.calendars.booked(row.tenant_id, row.name)
    return {
        "name": row.name,
        "description": row.description,
        "slots": row.slots,
        "appointments": [
            {
                "id": a.id,
                "start": iso(a.start),
                "end": iso(a.end),
                "name": a.name,
                "contact": a.contact,
                "note": a.note,
                "session_id": a.session_id,
                "customer": a.customer,
                "created_at": iso(a.created_at),
            }
            for a in booked
        ],
        "updated_at": iso(row.updated_at),
    }
