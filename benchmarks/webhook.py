"""Webhook benchmark: a webhook tool through the call pipeline against a direct pooled httpx
call to the same loopback server, in one run.

    python -m benchmarks.webhook [--calls 3000] [--concurrency 8,64] [--host 127.0.0.1]

The upstream is a tiny ASGI app under uvicorn on 127.0.0.1 (admitted by the allowlist); with
``--host localhost`` both paths name it, so the guard resolves a name on every call. The
pipeline path includes argument validation, the egress guard (checks, address pinning, redirect
handling, capped read), the envelope and the call log; the baseline is ``client.get`` on a
pooled ``httpx.AsyncClient``. Each number of calls in flight is measured twice: with the call
log's row synced to disk before the call answers (the default, ``QUIVER_CALL_LOG_FSYNC``), and
without (the row written, not synced) — the sync is the disk's cost, not the pipeline's.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from server.api.app import create_app
from server.calls.pipeline import CallRequest
from server.secretbox import generate_key
from server.settings import Settings
from server.storage.repositories import tool_def

UPSTREAM = """
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"status": "shipped", "eta_days": 2}'})
"""
ADMIN = "bench-admin-key-" + "w" * 40


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def measure(call, calls: int, concurrency: int) -> tuple[float, float, float]:
    latencies: list[float] = []
    remaining = calls

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            started = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return (
        statistics.median(ordered) * 1e3,
        ordered[int(0.99 * (len(ordered) - 1))] * 1e3,
        len(ordered) / elapsed,
    )


async def run(
    calls: int, concurrency: int, port: int, host: str = "127.0.0.1", fsync: bool = True
) -> None:
    url = f"http://{host}:{port}"
    tmp = Path(tempfile.mkdtemp())
    settings = Settings(
        _env_file=None,
        data_dir=tmp,
        admin_key=ADMIN,
        secret_key=generate_key(),
        egress_allow=host,
        workers=1,
        tenant_egress_concurrency=concurrency,
        call_log_fsync=fsync,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        body = {
            "kind": "webhook",
            "name": "order_status",
            "description": "status",
            "webhook_url": url + "/orders/{order_id}",
            "method": "GET",
            "parameters": {"order_id": {"type": "string", "required": True}},
            "auth_header": "Bearer x",
        }
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://q",
            headers={"Authorization": f"Bearer {ADMIN}"},
        ) as admin:
            await admin.post("/v1/tenants", json={"id": "bench"})
            assert (await admin.post("/v1/tools?tenant=bench", json=body)).status_code == 201
        async with runtime.sessions() as session:
            tool = tool_def(*await runtime.store(session).tools.get("bench", "order_status"))

        # One unit of work for the run: warm, the pipeline issues no SQL for a webhook call
        # (definition and secret are cached per version), as inside a request.
        store = runtime.store(runtime.sessions())

        async def through_pipeline() -> None:
            request = CallRequest(
                tenant_id="bench",
                tool="order_status",
                arguments={"order_id": "AB1"},
                modules=(),
                egress_allow=(),
            )
            result = await runtime.pipeline.call(store, request, tool)
            assert result["success"], result

        async with httpx.AsyncClient(
            trust_env=False, limits=httpx.Limits(max_connections=200, max_keepalive_connections=64)
        ) as client:

            async def direct() -> None:
                response = await client.get(
                    url + "/orders/AB1", headers={"Authorization": "Bearer x"}
                )
                assert response.status_code == 200

            await measure(direct, 300, concurrency)
            await measure(through_pipeline, 300, concurrency)
            base = await measure(direct, calls, concurrency)
            piped = await measure(through_pipeline, calls, concurrency)
        await store.session.close()
    synced = "the call log's row synced" if fsync else "the call log's row written, not synced"
    print(f"\n{concurrency} concurrent calls, {calls} each, {synced}")
    print(f"{'':<22}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>10}")
    for name, (p50, p99, rate) in (("direct httpx", base), ("webhook pipeline", piped)):
        print(f"{name:<22}{p50:>10.2f}{p99:>10.2f}{rate:>10.0f}")
    print(f"pipeline / direct: p50 {piped[0] / base[0]:.2f}x, throughput {piped[2] / base[2]:.0%}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--concurrency", default="8,64", help="calls in flight, e.g. 8,64")
    parser.add_argument("--host", default="127.0.0.1", help="the name or address calls use")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "upstream.py").write_text(UPSTREAM)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "upstream:app",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--app-dir",
                tmp,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            for concurrency in (int(c) for c in args.concurrency.split(",")):
                for fsync in (True, False):
                    asyncio.run(run(args.calls, concurrency, port, args.host, fsync))
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
