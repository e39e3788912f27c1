"""Repositories of the skills' data: data sets, preferences, leads, forms, calendars, and what
``recall_memory`` reads of a customer's earlier sessions."""

from __future__ import annotations

import builtins
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.errors import ConflictError, NotFoundError
from server.skills.records import Origin, SlotTaken
from server.storage.tables import (
    AppointmentRow,
    CalendarRow,
    DatasetItemRow,
    DatasetRow,
    FormRow,
    FormSubmissionRow,
    LeadRow,
    MessageRow,
    PreferenceRow,
    SessionRow,
    SessionVariableRow,
    ToolCallRow,
    utcnow,
)

INSERT_BATCH = 1000


class DatasetRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find(self, tenant_id: str, name: str) -> DatasetRow | None:
        return await self.session.get(DatasetRow, (tenant_id, name))

    async def get(self, tenant_id: str, name: str) -> DatasetRow:
        row = await self.find(tenant_id, name)
        if row is None:
            raise NotFoundError(f"data set {name!r} not found")
        return row

    async def list(self, tenant_id: str) -> list[DatasetRow]:
        query = (
            select(DatasetRow).where(DatasetRow.tenant_id == tenant_id).order_by(DatasetRow.name)
        )
        return list(await self.session.scalars(query))

    async def bytes_used(self, tenant_id: str, besides: str | None = None) -> int:
        query = select(func.coalesce(func.sum(DatasetRow.bytes), 0)).where(
            DatasetRow.tenant_id == tenant_id
        )
        if besides is not None:
            query = query.where(DatasetRow.name != besides)
        return int(await self.session.scalar(query) or 0)

    @property
    def streams(self) -> bool:
        """Whether an upload's items are written as they arrive (PostgreSQL) or only once the
        body is in (SQLite, which has one writer for the whole database: a slow upload must not
        hold its lock)."""
        bind = self.session.bind
        return bind is not None and bind.dialect.name == "postgresql"

    async def add_items(
        self,
        tenant_id: str,
        name: str,
        version: int,
        first_seq: int,
        items: Sequence[tuple[str | None, dict[str, Any]]],
    ) -> None:
        """Items of a version being uploaded, numbered from ``first_seq`` (409 when another
        upload of the set writes the same version meanwhile)."""
        for start in range(0, len(items), INSERT_BATCH):
            rows = [
                {
                    "tenant_id": tenant_id,
                    "dataset": name,
                    "version": version,
                    "seq": first_seq + start + i,
                    "item_id": item_id,
                    "data": data,
                }
                for i, (item_id, data) in enumerate(items[start : start + INSERT_BATCH])
            ]
            try:
                await self.session.execute(insert(DatasetItemRow), rows)
            except IntegrityError:
                message = f"another upload of {name!r} is under way; try again when it is done"
                raise ConflictError(message) from None

    async def replace(
        self, tenant_id: str, name: str, kind: str, version: int, items: int, size: int
    ) -> DatasetRow:
        """Make ``version`` (its items already added) the set's current one; drop the others."""
        row = await self.find(tenant_id, name)
        now = utcnow()
        if row is None:
            row = DatasetRow(tenant_id=tenant_id, name=name, created_at=now)
            self.session.add(row)
        row.kind, row.version, row.items, row.bytes, row.updated_at = (
            kind,
            version,
            items,
            size,
            now,
        )
        await self.session.execute(
            delete(DatasetItemRow).where(
                DatasetItemRow.tenant_id == tenant_id,
                DatasetItemRow.dataset == name,
                DatasetItemRow.version != version,
            )
        )
        await self.session.flush()
        return row

    async def delete(self, tenant_id: str, name: str) -> None:
        row = await self.get(tenant_id, name)
        await self.session.execute(
            delete(DatasetItemRow).where(
                DatasetItemRow.tenant_id == tenant_id, DatasetItemRow.dataset == name
            )
        )
        await self.session.delete(row)

    async def items(self, tenant_id: str, name: str, version: int) -> builtins.list[dict[str, Any]]:
        query = (
            select(DatasetItemRow.data)
            .where(
                DatasetItemRow.tenant_id == tenant_id,
                DatasetItemRow.dataset == name,
                DatasetItemRow.version == version,
            )
            .order_by(DatasetItemRow.seq)
        )
        return list(await self.session.scalars(query))

    async def page(
        self, tenant_id: str, name: str, version: int, after: int, limit: int
    ) -> builtins.list[tuple[int, dict[str, Any]]]:
        query = (
            select(DatasetItemRow.seq, DatasetItemRow.data)
            .where(
                DatasetItemRow.tenant_id == tenant_id,
                DatasetItemRow.dataset == name,
                DatasetItemRow.version == version,
                DatasetItemRow.seq > after,
            )
            .order_by(DatasetItemRow.seq)
            .limit(limit)
        )
        return [(seq, data) for seq, data in await self.session.execute(query)]

    async def versions(self, tenant_id: str) -> dict[str, tuple[str, int]]:
        """Each of the tenant's data sets: (kind, current version)."""
        query = select(DatasetRow.name, DatasetRow.kind, DatasetRow.version).where(
            DatasetRow.tenant_id == tenant_id
        )
        return {name: (kind, version) for name, kind, version in await self.session.execute(query)}


class PreferenceRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def record(
        self, tenant_id: str, customer: str, dataset: str, product_id: str, response: str
    ) -> None:
        row = await self.session.get(PreferenceRow, (tenant_id, customer, dataset, product_id))
        if row is None:
            row = PreferenceRow(
                tenant_id=tenant_id, customer=customer, dataset=dataset, product_id=product_id
            )
            self.session.add(row)
        row.response, row.at = response, utcnow()
        await self.session.flush()

    async def of(self, tenant_id: str, customer: str, dataset: str) -> dict[str, str]:
        query = select(PreferenceRow.product_id, PreferenceRow.response).where(
            PreferenceRow.tenant_id == tenant_id,
            PreferenceRow.customer == customer,
            PreferenceRow.dataset == dataset,
        )
        return dict((p, r) for p, r in await self.session.execute(query))

    async def most_liked(self, tenant_id: str, dataset: str, limit: int) -> list[str]:
        liked = func.count()
        query = (
            select(PreferenceRow.product_id)
            .where(
                PreferenceRow.tenant_id == tenant_id,
                PreferenceRow.dataset == dataset,
                PreferenceRow.response == "yes",
            )
            .group_by(PreferenceRow.product_id)
            .order_by(liked.desc(), PreferenceRow.product_id)
            .limit(limit)
        )
        return list(await self.session.scalars(query))


class LeadRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(
        self,
        tenant_id: str,
        origin: Origin,
        name: str,
        email: str | None,
        phone: str | None,
        interest: str,
    ) -> LeadRow:
        row = LeadRow(
            id=str(uuid.uuid4()),
            tenant_id=tenant_id,
            session_id=origin.session_id,
            customer=origin.customer,
            bot=origin.bot,
            name=name,
            email=email,
            phone=phone,
            interest=interest,
            created_at=utcnow(),
        )
        self.session.add(row)
        await self.session.flush()
        return row

    async def set_forwarded(self, lead_id: str, outcome: str) -> None:
        row = await self.session.get(LeadRow, lead_id)
        if row is not None:
            row.forwarded = outcome

    async def page(
        self, tenant_id: str, after: tuple[str, str] | None, limit: int
    ) -> list[LeadRow]:
        query = select(LeadRow).where(LeadRow.tenant_id == tenant_id)
        if after is not None:
            query = query.where(
                tuple_(LeadRow.created_at, LeadRow.id)
                > (datetime.fromisoformat(after[0]), after[1])
            )
        query = query.order_by(LeadRow.created_at, LeadRow.id).limit(limit)
        return list(await self.session.scalars(query))


class FormRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find(self, tenant_id: str, name: str) -> FormRow | None:
        return await self.session.get(FormRow, (tenant_id, name))

    async def get(self, tenant_id: str, name: str) -> FormRow:
        row = await self.find(tenant_id, name)
        if row is None:
            raise NotFoundError(f"form {name!r} not found")
        return row

    async def put(
        self, tenant_id: str, name: str, description: str, schema: dict[str, Any]
    ) -> tuple[FormRow, bool]:
        row = await self.find(tenant_id, name)
        created = row is None
        if row is None:
            row = FormRow(tenant_id=tenant_id, name=name)
            self.session.add(row)
        row.description, row.schema, row.updated_at = description, schema, utcnow()
        await self.session.flush()
        return row, created

    async def list(self, tenant_id: str) -> list[FormRow]:
        query = select(FormRow).where(FormRow.tenant_id == tenant_id).order_by(FormRow.name)
        return list(await self.session.scalars(query))

    async def delete(self, tenant_id: str, name: str) -> None:
        await self.session.delete(await self.get(tenant_id, name))

    async def submit(
        self, tenant_id: str, form: str, origin: Origin, fields: dict[str, Any]
    ) -> FormSubmissionRow:
        row = FormSubmissionRow(
            id=str(uuid.uuid4()),
            tenant_id=tenant_id,
            form=form,
            session_id=origin.session_id,
            customer=origin.customer,
            fields=fields,
            created_at=utcnow(),
        )
        self.session.add(row)
        await self.session.flush()
        return row

    async def submissions(
        self, tenant_id: str, form: str, after: tuple[str, str] | None, limit: int
    ) -> builtins.list[FormSubmissionRow]:
        query = select(FormSubmissionRow).where(
            FormSubmissionRow.tenant_id == tenant_id, FormSubmissionRow.form == form
        )
        if after is not None:
            query = query.where(
                tuple_(FormSubmissionRow.created_at, FormSubmissionRow.id)
                > (datetime.fromisoformat(after[0]), after[1])
            )
        query = query.order_by(FormSubmissionRow.created_at, FormSubmissionRow.id).limit(limit)
        return list(await self.session.scalars(query))


class CalendarRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find(self, tenant_id: str, name: str) -> CalendarRow | None:
        return await self.session.get(CalendarRow, (tenant_id, name))

    async def get(self, tenant_id: str, name: str) -> CalendarRow:
        row = await self.find(tenant_id, name)
        if row is None:
            raise NotFoundError(f"calendar {name!r} not found")
        return row

    async def put(
        self, tenant_id: str, name: str, description: str, slots: list[dict[str, Any]]
    ) -> tuple[CalendarRow, bool]:
        row = await self.find(tenant_id, name)
        created = row is None
        if row is None:
            row = CalendarRow(tenant_id=tenant_id, name=name)
            self.session.add(row)
        row.description, row.slots, row.updated_at = description, slots, utcnow()
        await self.session.flush()
        return row, created

    async def list(self, tenant_id: str) -> list[CalendarRow]:
        query = (
            select(CalendarRow).where(CalendarRow.tenant_id == tenant_id).order_by(CalendarRow.name)
        )
        return list(await self.session.scalars(query))

    async def delete(self, tenant_id: str, name: str) -> None:
        await self.session.delete(await self.get(tenant_id, name))

    async def booked(self, tenant_id: str, calendar: str) -> builtins.list[AppointmentRow]:
        query = (
            select(AppointmentRow)
            .where(AppointmentRow.tenant_id == tenant_id, AppointmentRow.calendar == calendar)
            .order_by(AppointmentRow.start)
        )
        return list(await self.session.scalars(query))

    async def book(
        self,
        tenant_id: str,
        calendar: str,
        start: datetime,
        end: datetime,
        origin: Origin,
        name: str,
        contact: str | None,
        note: str | None,
    ) -> AppointmentRow:
        """Book the slot, or raise ``SlotTaken``: the slot is the row's key, so of two bookings
        racing on any nodes exactly one commits. A savepoint keeps the caller's transaction."""
        row = AppointmentRow(
            tenant_id=tenant_id,
            calendar=calendar,
            start=start,
            end=end,
            id=str(uuid.uuid4()),
            session_id=origin.session_id,
            customer=origin.customer,
            name=name,
            contact=contact,
            note=note,
            created_at=utcnow(),
        )
        try:
            async with self.session.begin_nested():
                self.session.add(row)
        except IntegrityError:
            raise SlotTaken(f"the slot at {start.isoformat()} is already booked") from None
        return row


@dataclass(frozen=True)
class Memory:
    """A snippet of a customer's earlier session."""

    session_id: str
    at: datetime
    source: str  # variable, tool, transcript
    text: str


class MemoryRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def of_customer(
        self,
        tenant_id: str,
        customer: str,
        besides: str | None,
        sessions: int = 50,
        per_session: int = 200,
    ) -> list[Memory]:
        """What the customer's latest ``sessions`` sessions (not ``besides``) left: variables,
        successful tool results, and the conversation's user and assistant messages."""
        query = (
            select(SessionRow.id, SessionRow.created_at)
            .where(SessionRow.tenant_id == tenant_id, SessionRow.customer == customer)
            .order_by(SessionRow.created_at.desc())
            .limit(sessions + 1)
        )
        found = [(sid, at) for sid, at in await self.session.execute(query) if sid != besides][
            :sessions
        ]
        if not found:
            return []
        ids = [sid for sid, _ in found]
        memories: list[Memory] = []
        variables = select(
            SessionVariableRow.session_id,
            SessionVariableRow.name,
            SessionVariableRow.value,
            SessionVariableRow.updated_at,
        ).where(SessionVariableRow.session_id.in_(ids))
        for sid, name, value, at in await self.session.execute(variables):
            memories.append(Memory(sid, at, "variable", f"{name}: {value}"))
        calls = (
            select(ToolCallRow.session_id, ToolCallRow.tool, ToolCallRow.result, ToolCallRow.at)
            .where(
                ToolCallRow.session_id.in_(ids),
                ToolCallRow.success.is_(True),
                ToolCallRow.test.is_(False),
            )
            .order_by(ToolCallRow.id.desc())
            .limit(sessions * per_session)
        )
        for sid, tool, result, at in await self.session.execute(calls):
            if result:
                memories.append(Memory(str(sid), at, "tool", f"{tool}: {result[:2000]}"))
        messages = (
            select(
                MessageRow.session_id, MessageRow.role, MessageRow.content, MessageRow.created_at
            )
            .where(
                MessageRow.session_id.in_(ids),
                MessageRow.role.in_(("user", "assistant")),
                MessageRow.content.is_not(None),
            )
            .order_by(MessageRow.created_at.desc())
            .limit(sessions * per_session)
        )
        for sid, role, content, at in await self.session.execute(messages):
            memories.append(Memory(sid, at, "transcript", f"{role}: {(content or '')[:2000]}"))
        return memories
