"""Operations: liveness, readiness, and the disk tools report."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from sqlalchemy import text

from server import metrics
from server.api.deps import AdminDep, RuntimeDep
from server.storage import migrate

router = APIRouter(tags=["operations"])


@router.get("/metrics", response_class=Response)
async def prometheus_metrics(runtime: RuntimeDep) -> Response:
    """Prometheus text format: call counts and latencies by kind and outcome, the worker pool,
    breaker openings, cache hits, attached event streams."""
    metrics.EVENT_STREAMS.set(runtime.events.streams)
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(runtime: RuntimeDep) -> JSONResponse:
    """Ready when the database answers, its schema is at the newest migration, and the call
    log's journal has room (calls are refused while it has none)."""
    checks: dict[str, Any] = {"call_log": runtime.call_log.status()}
    try:
        async with runtime.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        checks["database"] = "ok"
        current, head = await migrate.current_revision(runtime.engine), migrate.head_revision()
        checks["migrations"] = "ok" if current == head else f"at {current}, head is {head}"
    except Exception as exc:  # readiness reports any failure instead of raising
        checks["database"] = f"unreachable: {type(exc).__name__}"
    ready = all(v == "ok" for v in checks.values()) and "migrations" in checks
    status = "ready" if ready else "not_ready"
    health = runtime.redis_health
    if health is not None:  # optional: without it the node serves from its in-process tier
        checks["redis"] = (
            f"degraded: in-process tier ({health.last_error})" if health.degraded else "ok"
        )
        if ready and health.degraded:
            status = "degraded"
    return JSONResponse({"status": status, "checks": checks}, status_code=200 if ready else 503)


@router.get("/v1/disk-tools", tags=["tools"])
async def disk_tools(admin: AdminDep, runtime: RuntimeDep) -> dict[str, Any]:
    """Tools loaded from the tools folder and builtins, and every file that failed, by name."""
    return _disk_report(runtime.registry.disk)


@router.post("/v1/disk-tools/reload", tags=["tools"])
async def reload_disk_tools(admin: AdminDep, runtime: RuntimeDep) -> dict[str, Any]:
    """Read the tools folder again (production; `SIGHUP` does the same). Attached agents get
    the change on their event streams."""
    return _disk_report(await runtime.reload_disk_now())


def _disk_report(disk: Any) -> dict[str, Any]:
    return {
        "generation": disk.generation,
        "tools": [
            {"name": t.tool.name, "origin": t.tool.origin, "file": t.path.name}
            for t in disk.tools.values()
        ],
        "errors": {name: [e.as_dict() for e in errors] for name, errors in disk.errors.items()},
    }
