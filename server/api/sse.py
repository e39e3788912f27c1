"""Server-sent event streams: admitting one (a tenant holds at most
``QUIVER_MAX_STREAMS_PER_TENANT`` on a node) and answering with one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi.responses import StreamingResponse

from server.errors import TooManyStreamsError
from server.events import Watcher


def watch(runtime: Any, tenant_id: str, key: str) -> Watcher:
    """A watcher of the tenant's changes for a new stream — refused past the tenant's cap (each
    stream does work on every change of its tenant: the fan-out is bounded)."""
    hub = runtime.events
    if hub.streams_of(tenant_id) >= runtime.settings.max_streams_per_tenant:
        raise TooManyStreamsError(
            f"this tenant already has {runtime.settings.max_streams_per_tenant} event streams "
            "open on this node; close one or raise QUIVER_MAX_STREAMS_PER_TENANT"
        )
    watcher: Watcher = hub.watch(tenant_id, key)
    return watcher


def event_stream(body: AsyncIterator[bytes]) -> StreamingResponse:
    """``body``'s events as they come: never cached, never buffered by a proxy."""
    return StreamingResponse(
        body,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
