"""Developers: the tenant's tool calls as data — a filtered, paged browser and a live tail.

Each row carries the call's arguments (as the tool received them, redacted), its envelope's
result or error, and the tool's own log lines (bounded, secrets masked: ``calllog.stored_logs``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse

from server.api import sse
from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, decode_id_cursor, encode_cursor
from server.api.views import aware, call_public
from server.errors import FieldError, ValidationFailedError
from server.storage.calls import CallQuery

router = APIRouter(prefix="/v1/calls", tags=["calls"])

TAIL_BATCH = 200
LOOKBACK_IDS = 1000


class Tail:
    """What a live tail has sent. Row ids are handed out before their rows commit, so on
    PostgreSQL another node's row can appear below the newest id already sent: the tail reads
    back over the last ``LOOKBACK_IDS`` ids (never below where it started) and sends each row
    once."""

    def __init__(self, start: int) -> None:
        self.start = self.newest = start
        self.sent: set[int] = set()

    @property
    def floor(self) -> int:
        return max(self.start, self.newest - LOOKBACK_IDS)

    def unsent(self, rows: list[Any]) -> list[Any]:
        fresh = [row for row in rows if row.id not in self.sent]
        for row in fresh:
            self.sent.add(row.id)
            self.newest = max(self.newest, row.id)
        floor = self.floor
        self.sent = {i for i in self.sent if i > floor}
        return fresh


Outcome = Annotated[
    str | None,
    Query(
        max_length=32,
        pattern=r"^[a-z_]+$",
        description="`success`, `failure`, `cached`, or a failure code such as `timeout`",
    ),
]
Name = Annotated[str | None, Query(max_length=64)]


@router.get("")
async def list_calls(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    tool: Name = None,
    session: Annotated[str | None, Query(max_length=36)] = None,
    outcome: Outcome = None,
    since: Annotated[datetime | None, Query(description="from this time (with its zone)")] = None,
    until: Annotated[datetime | None, Query(description="before this time (with its zone)")] = None,
    limit: LimitQuery = 50,
    cursor: CursorQuery = None,
) -> dict[str, Any]:
    """The tenant's tool calls, newest first, a page at a time: arguments, result or error, and
    the tool's own log lines. Test runs are included (``test: true``)."""
    tenant_id = developer_tenant(principal, tenant)
    since, until = aware(since, "since"), aware(until, "until")
    if since is not None and until is not None and until <= since:
        raise ValidationFailedError([FieldError("must be after since", field="until")])
    before = decode_id_cursor(cursor)
    await runtime.call_log.flush()  # this node's pending rows first: read your own calls
    query = CallQuery(tool, session, outcome, since, until, before)
    rows = await store.calls.browse(tenant_id, query, limit + 1)
    more, rows = len(rows) > limit, rows[:limit]
    return {
        "calls": [call_public(row, logs=True) for row in rows],
        "next_cursor": encode_cursor(rows[-1].id) if more and rows else None,
    }


@router.get("/stream", response_class=StreamingResponse)
async def tail_calls(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    tool: Name = None,
    last_event_id: Annotated[
        int | None,
        Header(
            alias="Last-Event-ID",
            ge=0,
            description="resume after this call (the id of the last `call` event received)",
        ),
    ] = None,
) -> StreamingResponse:
    """Server-sent events: a `call` event for each call of the tenant as it is logged (every
    node's), heartbeats in between. Starts with the calls logged from now on, or, resuming
    (``Last-Event-ID``), with those logged after that one."""
    tenant_id = developer_tenant(principal, tenant)
    if principal.is_admin:
        await store.tenants.get(tenant_id)  # a tenant that does not exist: 404, not a stream
    await runtime.call_log.flush()
    newest = await store.calls.newest_id(tenant_id)
    tail = Tail(newest if last_event_id is None else min(last_event_id, newest))
    hub = runtime.events
    watcher = sse.watch(runtime, tenant_id, f"calls:{tenant_id}")  # a stream of the tenant's
    poll_s = runtime.settings.call_tail_poll_s
    heartbeat_s = runtime.settings.sse_heartbeat_s

    async def stream() -> AsyncIterator[bytes]:
        clock = asyncio.get_running_loop().time
        sent_at = clock()
        try:
            yield b"retry: 1000\n\n"
            while not hub.closing.is_set():
                written = runtime.call_log.written()
                async with runtime.sessions() as session:
                    rows = await runtime.store(session).calls.since_id(
                        tenant_id, tail.floor, tool, TAIL_BATCH + len(tail.sent)
                    )
                fresh = tail.unsent(rows)
                for row in fresh:
                    data = orjson.dumps(call_public(row, logs=True))
                    yield b"event: call\nid: %d\ndata: %s\n\n" % (row.id, data)
                if fresh:
                    sent_at = clock()
                    if len(fresh) >= TAIL_BATCH:
                        continue
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(poll_s):
                        await written.wait()
                if clock() - sent_at >= heartbeat_s:
                    sent_at = clock()
                    yield b": heartbeat\n\n"
            yield b'event: closed\ndata: {"reason": "server shutting down"}\n\n'
        finally:
            hub.unwatch(watcher)

    return sse.event_stream(stream())
