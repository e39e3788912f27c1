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
from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from server.api.deps import PrincipalDep, RuntimeDep, StoreDep, TenantQuery, developer_tenant
from server.api.paging import CursorQuery, LimitQuery, decode_cursor, encode_cursor
from server.api.views import aware, call_public
from server.errors import FieldError, TooManyStreamsError, ValidationFailedError
from server.storage.calls import CallQuery

router = APIRouter(prefix="/v1/calls", tags=["calls"])

TAIL_BATCH = 200
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
    before = _before(cursor)
    await runtime.call_log.flush()  # this node's pending rows first: read your own calls
    query = CallQuery(tool, session, outcome, since, until, before)
    rows = await store.calls.browse(tenant_id, query, limit + 1)
    more, rows = len(rows) > limit, rows[:limit]
    return {
        "calls": [call_public(row, logs=True) for row in rows],
        "next_cursor": encode_cursor(rows[-1].id) if more and rows else None,
    }


def _before(cursor: str | None) -> int | None:
    key = decode_cursor(cursor, 1)
    if key is None:
        return None
    if not isinstance(key[0], int) or isinstance(key[0], bool):
        raise ValidationFailedError([FieldError("not a cursor this list gave out", field="cursor")])
    return key[0]


@router.get("/stream", response_class=StreamingResponse)
async def tail_calls(
    principal: PrincipalDep,
    runtime: RuntimeDep,
    store: StoreDep,
    tenant: TenantQuery = None,
    tool: Name = None,
) -> StreamingResponse:
    """Server-sent events: a `call` event for each call of the tenant as it is logged (every
    node's), heartbeats in between. Starts with the calls logged from now on."""
    tenant_id = developer_tenant(principal, tenant)
    if principal.is_admin:
        await store.tenants.get(tenant_id)  # a tenant that does not exist: 404, not a stream
    hub = runtime.events
    if hub.streams_of(tenant_id) >= runtime.settings.max_streams_per_tenant:
        raise TooManyStreamsError(
            f"this tenant already has {runtime.settings.max_streams_per_tenant} event streams "
            "open on this node; close one or raise QUIVER_MAX_STREAMS_PER_TENANT"
        )
    await runtime.call_log.flush()
    last = await store.calls.newest_id(tenant_id)
    watcher = hub.watch(tenant_id, f"calls:{tenant_id}")  # counted with the tenant's streams
    poll_s = runtime.settings.call_tail_poll_s
    heartbeat_s = runtime.settings.sse_heartbeat_s

    async def stream() -> AsyncIterator[bytes]:
        nonlocal last
        quiet = 0.0
        try:
            yield b"retry: 1000\n\n"
            while not hub.closing.is_set():
                written = runtime.call_log.written()
                async with runtime.sessions() as session:
                    rows = await runtime.store(session).calls.since_id(
                        tenant_id, last, tool, TAIL_BATCH
                    )
                for row in rows:
                    last = row.id
                    data = orjson.dumps(call_public(row, logs=True))
                    yield b"event: call\nid: %d\ndata: %s\n\n" % (row.id, data)
                if rows:
                    quiet = 0.0
                    if len(rows) == TAIL_BATCH:
                        continue
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(poll_s):
                        await written.wait()
                    continue
                quiet += poll_s
                if quiet >= heartbeat_s:
                    quiet = 0.0
                    yield b": heartbeat\n\n"
            yield b'event: closed\ndata: {"reason": "server shutting down"}\n\n'
        finally:
            hub.unwatch(watcher)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
