"""Snapshot benchmark: build and serve a bot snapshot of 10 / 100 / 1,000 / 10,000 tools.

    python -m benchmarks.snapshot [--sizes 10,100,1000,10000] [--repeat 200]

Measured in one run, so the ratios hold on a noisy machine:
  json.dumps   baseline: ``json.dumps`` of the same list of tool dicts
  cold build   resolve + build_snapshot + render + serialise, nothing memoised
  warm 200     server time of ``GET /v1/bots/{bot}/snapshot`` through the ASGI app (auth,
               version check, cached rendering) on the embedded SQLite
  304          the same request with a matching ``If-None-Match``
  over HTTP    the same two requests to a real ``quiver serve`` (on the database built above),
               one keep-alive connection: the server's CPU per request (its event loop's thread,
               read from ``/proc``: the client is not counted) and the round trip's p50
               (goal, issue 46: <= 0.3 ms of server time at 1,000 tools, warm and 304)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from server.api.app import create_app
from server.registry import formats
from server.registry.formats import render
from server.registry.model import BotDef
from server.registry.resolution import resolve_visible
from server.registry.snapshot import build_snapshot
from server.secretbox import generate_key
from server.settings import Settings
from server.storage.repositories import tool_def
from server.storage.tables import ToolRow, ToolVersionRow, utcnow

ADMIN = "bench-admin-key-" + "b" * 40


def tool_rows(n: int) -> list[tuple[ToolRow, ToolVersionRow]]:
    rows = []
    for i in range(n):
        tool = ToolRow(
            id=i + 1,
            tenant_id="bench",
            name=f"tool_{i:05d}",
            current_version=1,
            enabled=True,
            created_at=utcnow(),
            updated_at=utcnow(),
        )
        params = {
            "type": "object",
            "properties": {
                "order_id": {
                    "type": "string",
                    "pattern": "^[A-Z]{2}[0-9]+$",
                    "description": "the order id",
                },
                "verbose": {"type": "boolean"},
            },
            "required": ["order_id"],
        }
        version = ToolVersionRow(
            tool_id=i + 1, version=1, kind="python", sandbox="restricted", description=f"Tool number {i} does a useful thing",
            parameters=params, meta={"timeout": 2000}, source="# bench", content_hash=f"{i:064x}", created_at=utcnow(),
        )  # fmt: skip
        rows.append((tool, version))
    return rows


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def asgi_get(app: Any, path: str, query: str, headers: dict[str, str]) -> tuple[int, float]:
    """Server time of one request, without a client or socket in the way."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1), "server": ("bench", 80),
    }  # fmt: skip
    status = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    start = time.perf_counter()
    await app(scope, receive, send)
    return status, time.perf_counter() - start


def timed(fn, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


async def bench_size(n: int, repeat: int, workdir: Path) -> dict[str, float]:
    settings = Settings(
        _env_file=None,
        data_dir=workdir / f"d{n}",
        admin_key=ADMIN,
        secret_key=generate_key(),
        key_requests="100000/second",  # the server's time is measured, not its key's rate
        tenant_requests="100000/second",
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        rows = tool_rows(n)
        async with runtime.sessions() as session, session.begin():
            store = runtime.store(session)
            await store.tenants.create("bench", "bench")
            for tool, version in rows:
                session.add(tool)
                session.add(version)
            await store.bots.create("bench", "all", None, None)
            _, key = await store.keys.create("agent", "bench")
        defs = [tool_def(t, v) for t, v in rows]
        native = [
            formats.native(e)
            for e in build_snapshot({d.name: d for d in defs}, BotDef("all")).entries
        ]

        def cold() -> bytes:
            formats._MEMO.clear()
            visible = resolve_visible(defs, (), (), ())
            snapshot = build_snapshot(visible, BotDef("all"))
            return json.dumps({"version": 1, "tools": render(snapshot, "native")}).encode()

        baseline = timed(lambda: json.dumps(native), repeat)
        cold_samples = timed(cold, max(5, repeat // 10))
        headers = {"authorization": f"Bearer {key.token}"}
        status, _ = await asgi_get(app, "/v1/bots/all/snapshot", "", headers)
        assert status == 200
        warm, not_modified = [], []
        for _ in range(repeat):
            status, took = await asgi_get(app, "/v1/bots/all/snapshot", "", headers)
            assert status == 200
            warm.append(took)
        etag = runtime.registry.etag(
            await runtime.registry.view(_Store(runtime), "bench"), "all", "native"
        )
        for _ in range(repeat):
            status, took = await asgi_get(
                app, "/v1/bots/all/snapshot", "", {**headers, "if-none-match": etag}
            )
            assert status == 304
            not_modified.append(took)
    over_http = await _over_http(settings, key.token, etag, repeat)
    return {
        **over_http,
        "json.dumps": statistics.median(baseline),
        "cold build": statistics.median(cold_samples),
        "warm 200": statistics.median(warm),
        "warm 200 p99": percentile(warm, 0.99),
        "304": statistics.median(not_modified),
        "304 p99": percentile(not_modified, 0.99),
    }


async def _over_http(settings: Settings, token: str, etag: str, repeat: int) -> dict[str, float]:
    """Server CPU and round trip of the warm 200 and the 304, served by a real process."""
    from benchmarks.restricted import free_port, wait_ready
    from benchmarks.tenants import cpu_s

    port = free_port()
    env = {
        **os.environ,
        "QUIVER_DATA_DIR": str(settings.data_dir),
        "QUIVER_ADMIN_KEY": ADMIN,
        "QUIVER_SECRET_KEY": settings.secret_key.get_secret_value(),
        "QUIVER_LOG_LEVEL": "warning",
        "QUIVER_KEY_REQUESTS": "100000/second",
        "QUIVER_TENANT_REQUESTS": "100000/second",
    }
    proc = _serve(env, port)
    try:
        wait_ready(f"http://127.0.0.1:{port}", "/readyz")
        figures = {}
        for name, extra in (("http 200", ""), ("http 304", f"If-None-Match: {etag}\r\n")):
            request = (
                f"GET /v1/bots/all/snapshot HTTP/1.1\r\nHost: bench\r\n"
                f"Authorization: Bearer {token}\r\n{extra}\r\n"
            ).encode()
            await _round_trips(port, request, 20)  # warm
            before = cpu_s(proc.pid)[0]
            trips = await _round_trips(port, request, repeat)
            figures[f"{name} cpu"] = (cpu_s(proc.pid)[0] - before) / repeat
            figures[f"{name} p50"] = statistics.median(trips)
        return figures
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def _bare_over_http(repeat: int) -> tuple[float, float]:
    """The same measure of a bare FastAPI endpoint (the floor of any route): CPU per request
    and round trip p50."""
    from benchmarks.restricted import _uvicorn, free_port, wait_ready
    from benchmarks.tenants import cpu_s

    port = free_port()
    proc = _uvicorn("benchmarks.bare_app:app", port)
    try:
        wait_ready(f"http://127.0.0.1:{port}", "/docs")
        request = b"POST /v1/sessions/x/calls HTTP/1.1\r\nHost: bench\r\nContent-Length: 0\r\n\r\n"
        await _round_trips(port, request, 20)
        before = cpu_s(proc.pid)[0]
        trips = await _round_trips(port, request, repeat)
        return (cpu_s(proc.pid)[0] - before) / repeat, statistics.median(trips)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--no-python-runner"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def _round_trips(port: int, request: bytes, count: int) -> list[float]:
    from benchmarks.mcp_door import read_response

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    trips = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            writer.write(request)
            status, _headers, _body = await read_response(reader)
            assert status in (200, 304), status
            trips.append(time.perf_counter() - started)
    finally:
        writer.close()
    return trips


class _Store:
    """A throwaway unit of work for reading the current view outside a request."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime

    async def registry_versions(self, tenant_id: str):
        async with self.runtime.sessions() as session:
            return await self.runtime.store(session).registry_versions(tenant_id)

    async def load_registry(self, tenant_id: str):
        async with self.runtime.sessions() as session:
            return await self.runtime.store(session).load_registry(tenant_id)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,100,1000,10000")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        results = {n: asyncio.run(bench_size(n, args.repeat, Path(tmp))) for n in sizes}
    print(
        f"{'tools':>6} | {'json.dumps':>10} | {'cold build':>18} | {'warm 200 (p99)':>26} | {'304 (p99)':>24}"
    )
    print("-" * 96)
    for n, r in results.items():
        base = r["json.dumps"]
        print(
            f"{n:>6} | {base * 1e3:8.3f}ms | {r['cold build'] * 1e3:8.3f}ms ({r['cold build'] / base:5.1f}x) | "
            f"{r['warm 200'] * 1e3:7.3f}ms ({r['warm 200 p99'] * 1e3:7.3f}) {r['warm 200'] / base:5.2f}x | "
            f"{r['304'] * 1e3:7.3f}ms ({r['304 p99'] * 1e3:7.3f}) {r['304'] / base:5.2f}x"
        )
    print("ratios are against json.dumps of the same tool list, measured in this run")
    bare_cpu, bare_trip = asyncio.run(_bare_over_http(args.repeat))
    print(f"\n{'tools':>6} | over HTTP: server CPU per request (round trip p50), one connection")
    print(
        f"{'bare':>6} | a bare FastAPI endpoint {bare_cpu * 1e3:6.3f} ms ({bare_trip * 1e3:6.3f} ms)"
    )
    for n, r in results.items():
        print(
            f"{n:>6} | warm 200 {r['http 200 cpu'] * 1e3:6.3f} ms ({r['http 200 p50'] * 1e3:6.3f} ms) | "
            f"304 {r['http 304 cpu'] * 1e3:6.3f} ms ({r['http 304 p50'] * 1e3:6.3f} ms)"
        )


if __name__ == "__main__":
    main()
