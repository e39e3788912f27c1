"""Snapshot benchmark: build and serve a bot snapshot of 10 / 100 / 1,000 / 10,000 tools.

    python -m benchmarks.snapshot [--sizes 10,100,1000,10000] [--repeat 200]

Measured in one run, so the ratios hold on a noisy machine:
  json.dumps   baseline: ``json.dumps`` of the same list of tool dicts
  cold build   resolve + build_snapshot + render + serialise, nothing memoised
  warm 200     server time of ``GET /v1/bots/{bot}/snapshot`` through the ASGI app (auth,
               version check, cached rendering) on the embedded SQLite
  304          the same request with a matching ``If-None-Match``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
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
        _env_file=None, data_dir=workdir / f"d{n}", admin_key=ADMIN, secret_key=generate_key()
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
    return {
        "json.dumps": statistics.median(baseline),
        "cold build": statistics.median(cold_samples),
        "warm 200": statistics.median(warm),
        "warm 200 p99": percentile(warm, 0.99),
        "304": statistics.median(not_modified),
        "304 p99": percentile(not_modified, 0.99),
    }


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


if __name__ == "__main__":
    main()
